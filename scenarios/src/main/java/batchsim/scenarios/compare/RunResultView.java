package batchsim.scenarios.compare;

import batchsim.core.metrics.PoolStats;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.UtilizationStat;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.HdrHistogram.Histogram;

/** A {@link ResultView} of a run in memory; percentiles are read exactly as summary.json writes them. */
public final class RunResultView implements ResultView {
  private final RunResult r;

  private RunResultView(RunResult r) {
    this.r = r;
  }

  public static ResultView of(RunResult r) {
    return new RunResultView(r);
  }

  @Override
  public String scenarioName() {
    return r.scenarioName();
  }

  @Override
  public long seed() {
    return r.seed();
  }

  @Override
  public long endTimeMs() {
    return r.endTimeMs();
  }

  @Override
  public List<String> queues() {
    return r.queues().stream().map(QueueStats::name).toList();
  }

  @Override
  public OptionalDouble latency(String queue, Series series, Stat stat) {
    QueueStats q = queue(queue);
    if (q == null) {
      return OptionalDouble.empty();
    }
    Histogram h = series == Series.WAIT ? q.timeToReservation()
        : series == Series.START ? q.timeToStart() : q.completion();
    if (h == null || h.getTotalCount() == 0) {
      return OptionalDouble.empty();
    }
    if (stat == Stat.MEAN) {
      return OptionalDouble.of(h.getMean());
    }
    return OptionalDouble.of(stat == Stat.MAX ? h.getMaxValue() : h.getValueAtPercentile(stat.percentile()));
  }

  @Override
  public OptionalLong count(String queue, Counter counter) {
    QueueStats q = queue(queue);
    if (q == null) {
      return OptionalLong.empty();
    }
    switch (counter) {
      case ARRIVED: return OptionalLong.of(q.arrived());
      case ADMITTED: return OptionalLong.of(q.admitted());
      case FINISHED: return OptionalLong.of(q.finished());
      case PENDING: return OptionalLong.of(q.pendingAtEnd());
      case EVICTIONS: return OptionalLong.of(q.evicted());
      case PREEMPTIONS: return OptionalLong.of(q.preempted());
      default: throw new AssertionError(counter);
    }
  }

  @Override
  public List<Utilization> utilization() {
    return r.utilization().stream().map(RunResultView::row).toList();
  }

  private static Utilization row(UtilizationStat u) {
    return new Utilization(u.flavor(), u.resource(), u.utilization(), u.meanAllocated(), u.meanCapacity());
  }

  @Override
  public List<PoolHours> pools() {
    List<PoolStats> pools = r.pools();
    return pools == null ? List.of() : pools.stream().map(p -> new PoolHours(p.pool(), p.nodeHours())).toList();
  }

  private QueueStats queue(String name) {
    if (OVERALL.equals(name)) {
      return r.overall();
    }
    for (QueueStats q : r.queues()) {
      if (q.name().equals(name)) {
        return q;
      }
    }
    return null;
  }

  @Override
  public batchsim.core.metrics.MetricSamples metricSamples() {
    return r.metricSamples();
  }
}
