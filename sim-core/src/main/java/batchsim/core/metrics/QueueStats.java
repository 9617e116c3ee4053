package batchsim.core.metrics;

import org.HdrHistogram.Histogram;

/**
 * Latency histograms (virtual milliseconds, recorded with plain {@code recordValue}) and counters of one
 * ClusterQueue, or of the whole run when {@code name} is "*".
 *
 * @param timeToReservation created → first QuotaReserved
 * @param timeToStart created → all pods running (last admission)
 * @param completion created → Finished
 * @param pendingAtEnd workloads waiting for quota when the run ended
 * @param admittedAtEnd workloads holding quota but not running yet (pods pending) at the end
 * @param runningAtEnd workloads running at the end
 */
public record QueueStats(
    String name,
    Histogram timeToReservation,
    Histogram timeToStart,
    Histogram completion,
    long arrived,
    long admitted,
    long finished,
    long evicted,
    long preempted,
    long pendingAtEnd,
    long admittedAtEnd,
    long runningAtEnd) {

  public static final String OVERALL = "*";
}
