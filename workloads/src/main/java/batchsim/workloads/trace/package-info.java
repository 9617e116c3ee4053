/**
 * Replays public workload traces: lazy readers for SWF (Parallel Workloads Archive), the Philly per-job
 * GPU table and the Alibaba GPU cluster trace (pods and nodes), a bounded external sort for unsorted
 * traces, and the mapping of trace jobs to workloads (queue, priority, pod shape, time window, speed-up,
 * sampling).
 *
 * <p>Pipeline: {@link TraceFiles} (plain or gzip, streamed) → {@link LineReader} (one line at a time) → optional sort → drop/window/limit/sample
 * ({@link TraceSelection}) → {@link TraceMapping} → {@code WorkloadSpec}. {@link TraceSource} ties these
 * together as a {@code WorkloadSourceSpec}; {@link TraceScan} runs the same pipeline once at load time so
 * that problems are reported before a run starts.
 */
package batchsim.workloads.trace;
