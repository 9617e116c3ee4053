package batchsim.core.metrics;

/**
 * One MultiKueue worker cluster's part of a run: its own result (its queues, nodes, utilization, waits as
 * its Kueue saw the copies) and what MultiKueue did with it.
 *
 * @param name the worker (its MultiKueueCluster)
 * @param result the worker's own result; it lists no workloads (the manager's result has them)
 * @param copiesCreated remote workload copies created on the worker
 * @param copiesRemoved copies removed (another worker admitted first, or the manager's workload went away)
 * @param won workloads whose copy here was admitted first and made the manager's check Ready (the
 *     worker's own {@code result} counts every copy its Kueue admitted, won or not)
 * @param finished of those, the ones that finished here
 * @param requeuedLost workloads the manager requeued because this worker stayed lost past workerLostTimeout
 * @param disconnectedMs time the manager had no connection to the worker
 */
public record ClusterResult(String name, RunResult result, long copiesCreated, long copiesRemoved, long won,
    long finished, long requeuedLost, long disconnectedMs) {}
