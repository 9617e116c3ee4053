package batchsim.core.model;

/**
 * The controllers' own pace (opt-in, {@code kueue.controllerPace}): what Kueue's scheduling cycle costs and how
 * fast its API client may write. Off, a cycle and every write take no virtual time. The defaults are the
 * components Kueue's scheduler performance test runs (test/performance/scheduler/minimalkueue at ff69552e);
 * the cycle costs are calibrated on that test's baseline (README, "Controller pace").
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

  public ControllerPaceConfig {
    if (!(clientQps > 0) || clientBurst < 1 || writeLatencyMs < 0 || watchLatencyMs < 0 || cycleBaseUs < 0
        || perClusterQueueUs < 0 || perHeadUs < 0 || perCandidateUs < 0) {
      throw new IllegalArgumentException("controller pace: QPS and burst must be positive, costs not negative");
    }
  }

  public static ControllerPaceConfig defaults() {
    return new ControllerPaceConfig(50, 100, 5, 5, 1_000, 20, 200, 5);
  }
}
