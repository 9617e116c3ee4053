package batchsim.core.model;

/**
 * The controllers' own pace (opt-in, {@code kueue.controllerPace}): what Kueue's scheduling cycle costs and how
 * fast its API client may write. Off, a cycle and every write take no virtual time. The client defaults are
 * those Kueue's scheduler performance test runs (test/performance/scheduler/minimalkueue at ff69552e: QPS 50,
 * burst 100); the latencies and cycle costs are physical first guesses, not fitted: that test's baseline
 * hardly moves with them, the client's QPS is the lever (README, "Controller pace"). Every per-item cost is
 * at most {@link #MAX_COST_US} (1 s) and each latency at most {@link #MAX_LATENCY_MS} (1 h): physical
 * ceilings far above any real controller's, which keep every cycle's arithmetic far from overflow.
 *
 * @param clientQps Kueue's API client rate (client-go token bucket; minimalkueue sets QPS 50, a stock
 *     Kueue Configuration's clientConnection defaults to 300)
 * @param clientBurst the bucket's size (minimalkueue: burst 100; stock Kueue: 500)
 * @param writeLatencyMs one write's round trip once the bucket lets it go (API server, etcd)
 * @param watchLatencyMs from a write landing to another controller acting on it (informer delivery, work queue)
 * @param cycleBaseUs a cycle's fixed cost (snapshot, heads, bookkeeping), microseconds
 * @param perClusterQueueUs per ClusterQueue the cycle's snapshot copies
 * @param perHeadUs per head nominated (flavor assignment, fit checks)
 * @param perCandidateUs per preemption candidate the cycle's preemption searches visit
 */
public record ControllerPaceConfig(double clientQps, int clientBurst, long writeLatencyMs, long watchLatencyMs,
    long cycleBaseUs, long perClusterQueueUs, long perHeadUs, long perCandidateUs) {
  /** The ceiling of each cycle cost, microseconds (1 s). */
  public static final long MAX_COST_US = 1_000_000;
  /** The ceiling of each latency, milliseconds (1 h). */
  public static final long MAX_LATENCY_MS = 3_600_000;

  public ControllerPaceConfig {
    if (!(clientQps > 0) || clientBurst < 1 || !within(writeLatencyMs, MAX_LATENCY_MS)
        || !within(watchLatencyMs, MAX_LATENCY_MS) || !within(cycleBaseUs, MAX_COST_US)
        || !within(perClusterQueueUs, MAX_COST_US) || !within(perHeadUs, MAX_COST_US)
        || !within(perCandidateUs, MAX_COST_US)) {
      throw new IllegalArgumentException("controller pace: QPS and burst must be positive, costs and latencies"
          + " between 0 and their ceilings (1 s, 1 h)");
    }
  }

  private static boolean within(long v, long max) {
    return v >= 0 && v <= max;
  }

  public static ControllerPaceConfig defaults() {
    return new ControllerPaceConfig(50, 100, 5, 5, 1_000, 20, 200, 5);
  }
}
