package batchsim.scenarios.expect;

import batchsim.core.metrics.MetricSample;
import batchsim.core.metrics.MetricSamples;
import batchsim.core.model.Durations;
import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.yaml.Location;
import java.math.BigDecimal;
import java.util.Map;

/**
 * {@code at(TIME, kueue_METRIC{labels}) OP NUMBER}: one of Kueue's metrics as the run's metric model had it at a
 * virtual time — the last sample at or before TIME (the run samples every {@code sampleInterval}), summed over
 * the series the selector picks ({@link MetricSelector}); no series reads 0, as Kueue's test helpers read a
 * counter never incremented or a gauge whose series was deleted (client_golang's WithLabelValues). E.g.
 * {@code at(5m, kueue_pending_workloads{cluster_queue="cq-a",status="inadmissible"}) == 3}.
 */
record AtMetric(String name, Location at, long atMs, MetricSelector metric, Op op, BigDecimal expected)
    implements Expectation {

  static AtMetric of(String text, Location at, ExpressionParser.AtComparison c, MetricSelector m)
      throws ExpressionException {
    BigDecimal v = AtStatus.number(c.value());
    if (v == null) {
      throw new ExpressionException(c.valueOffset(), "a metric compares with a number, not '" + c.value() + "'");
    }
    return new AtMetric(text.strip(), at, c.atMs(), m, c.op(), v);
  }

  @Override
  public Outcome evaluate(ResultView result, boolean checked) {
    MetricSamples samples = result.metricSamples();
    String when = "at " + Durations.format(atMs);
    if (samples == null || samples.samples().isEmpty()) {
      return fail("the run took no metric samples (Kueue's metrics are sampled every sampleInterval; set one)");
    }
    MetricSample last = null;
    for (MetricSample s : samples.samples()) {
      if (s.timeMs() > atMs) {
        break;
      }
      last = s;
    }
    if (last == null) {
      return fail("no metric sample at or before " + Durations.format(atMs) + " (the first is at "
          + Durations.format(samples.samples().get(0).timeMs()) + ")");
    }
    double sum = 0;
    int series = 0;
    for (Map.Entry<String, Double> e : last.values().entrySet()) {
      if (metric.selects(e.getKey())) {
        sum += e.getValue();
        series++;
      }
    }
    String measured = Double.isFinite(sum) ? BigDecimal.valueOf(sum).stripTrailingZeros().toPlainString()
        : String.valueOf(sum);
    String detail = "measured " + measured + " " + when + " (sampled at " + Durations.format(last.timeMs()) + ", "
        + (series == 0 ? "no such series: it reads 0" : series + " series") + ")";
    boolean holds = Double.isFinite(sum) ? op.holds(BigDecimal.valueOf(sum).compareTo(expected), 0)
        : op.holds(Double.compare(sum, expected.doubleValue()), 0);
    return holds ? new Outcome(name, Outcome.Status.PASS, detail, at)
        : fail(detail + ", expected " + op.symbol() + " " + expected.toPlainString());
  }

  private Outcome fail(String detail) {
    return new Outcome(name, Outcome.Status.FAIL, detail, at);
  }
}
