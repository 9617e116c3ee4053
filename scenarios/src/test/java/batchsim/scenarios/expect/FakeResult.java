package batchsim.scenarios.expect;

import batchsim.scenarios.compare.Counter;
import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.compare.Series;
import batchsim.scenarios.compare.Stat;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** A result with fixed numbers: team-a waits p95 34m12s, team-b never waited (no samples), 3 preemptions. */
final class FakeResult implements ResultView {
  @Override
  public String scenarioName() {
    return "fake";
  }

  @Override
  public long seed() {
    return 1;
  }

  @Override
  public long endTimeMs() {
    return 3_600_000;
  }

  @Override
  public List<String> queues() {
    return List.of("team-a", "team-b");
  }

  @Override
  public OptionalDouble latency(String queue, Series series, Stat stat) {
    if (queue.equals("team-b")) {
      return OptionalDouble.empty();
    }
    double p95 = 34 * 60_000 + 12_000;
    return OptionalDouble.of(stat == Stat.P95 ? p95 : stat == Stat.P50 ? 60_000 : p95 * 2);
  }

  @Override
  public OptionalLong count(String queue, Counter counter) {
    if (!queue.equals("team-a") && !queue.equals("team-b") && !queue.equals(OVERALL)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(counter == Counter.PREEMPTIONS ? (queue.equals("team-a") ? 0 : 3) : 10);
  }

  @Override
  public List<Utilization> utilization() {
    return List.of(new Utilization("a100", "nvidia.com/gpu", 0.712, 22.8, 32),
        new Utilization(OVERALL, "nvidia.com/gpu", 0.712, 22.8, 32),
        new Utilization(OVERALL, "cpu", 0.5, 100_000, 200_000));
  }

  @Override
  public List<PoolHours> pools() {
    return List.of();
  }
}
