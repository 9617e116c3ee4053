package batchsim.core.metrics;

/**
 * One node pool over the run.
 *
 * @param nodesAtEnd nodes present at the end (failed ones included)
 * @param nodeHours integral of present nodes over time, in node-hours (what the pool costs)
 * @param failures node failures (timeline and failure model)
 * @param failedNodeHours node-hours spent failed (NotReady)
 * @param podsLost pods that failed because their node failed, was drained or removed
 */
public record PoolStats(String pool, long nodesAtEnd, double nodeHours, long failures, double failedNodeHours,
    long podsLost) {}
