package batchsim.scenarios.expect;

import batchsim.scenarios.compare.Better;
import batchsim.scenarios.compare.Counter;
import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.compare.Series;
import batchsim.scenarios.compare.Stat;
import batchsim.scenarios.tables.Format;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One number of a run, named the way expectations and sweep columns name it:
 * <pre>
 *   p50|p90|p95|p99|max|mean ( wait|start|completion [{queue=NAME}] )   latency in ms
 *   utilization ( RESOURCE [, FLAVOR] )                                  allocated ÷ capacity, 0..1
 *   count ( arrived|admitted|finished|pending|evictions|preemptions [{queue=NAME}] )
 * </pre>
 * Without a queue the metric covers all ClusterQueues; without a flavor, all nodes.
 *
 * @param queue a ClusterQueue, or {@link ResultView#OVERALL}
 * @param queueOffset where the queue name starts in the text (-1 when none was given), for problems
 * @param flavor a ResourceFlavor, or {@link ResultView#OVERALL}
 */
public record Metric(Kind kind, Stat stat, Series series, Counter counter, String resource, String flavor,
    String queue, int queueOffset, int resourceOffset, int flavorOffset) {
  /** What the metric measures. */
  public enum Kind { LATENCY, UTILIZATION, COUNT }

  /** Parses a metric such as {@code p95(wait{queue=team-a})}. */
  public static Metric parse(String text) throws ExpressionException {
    return ExpressionParser.metric(text);
  }

  /** The value in {@code result}; empty when it has none (no samples, unknown queue or resource). */
  public OptionalDouble value(ResultView result) {
    switch (kind) {
      case LATENCY:
        return result.latency(queue, series, stat);
      case UTILIZATION:
        return result.utilization(flavor, resource);
      case COUNT:
        OptionalLong c = result.count(queue, counter);
        return c.isPresent() ? OptionalDouble.of(c.getAsLong()) : OptionalDouble.empty();
      default:
        throw new AssertionError(kind);
    }
  }

  /** Which way is better. */
  public Better better() {
    return kind == Kind.LATENCY ? Better.LOWER : kind == Kind.UTILIZATION ? Better.HIGHER : counter.better();
  }

  /** Latencies are durations (ms). */
  public boolean isTime() {
    return kind == Kind.LATENCY;
  }

  /** A value of this metric for people: a duration, a ratio with three decimals, or a count. */
  public String show(double v) {
    return kind == Kind.LATENCY ? Format.duration(v) : kind == Kind.UTILIZATION ? Format.fixed(v, 3)
        : Format.number(v, 2);
  }

  /** A value of this metric for CSV: ms for latencies (3 decimals), else the number. */
  public String csv(double v) {
    return Format.number(v, kind == Kind.COUNT ? 3 : kind == Kind.LATENCY ? 3 : 6);
  }

  /** The canonical text, e.g. {@code p95(wait{queue=team-a})}, {@code utilization(nvidia.com/gpu)}. */
  @Override
  public String toString() {
    String sel = ResultView.OVERALL.equals(queue) ? "" : "{queue=" + queue + "}";
    switch (kind) {
      case LATENCY: return stat.word() + "(" + series.word() + sel + ")";
      case COUNT: return "count(" + counter.word() + sel + ")";
      default: return "utilization(" + resource + (ResultView.OVERALL.equals(flavor) ? "" : ", " + flavor) + ")";
    }
  }
}
