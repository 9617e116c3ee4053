package batchsim.scenarios.expect;

import batchsim.core.model.Durations;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.compare.ResultView;
import java.math.BigDecimal;
import java.util.OptionalDouble;

/** {@code METRIC OP VALUE}, e.g. {@code p95(wait{queue=team-a}) < 20m}. */
record Threshold(String name, Location at, Metric metric, Op op, double value, String valueText)
    implements Expectation {

  /** Parses {@code text}, written at {@code at}; the value must suit the metric (a duration for latencies). */
  static Threshold parse(String text, Location at) throws ExpressionException {
    ExpressionParser.Comparison c = ExpressionParser.comparison(text);
    double v = value(c.metric(), c.value(), c.valueOffset());
    return new Threshold(text.strip(), at, c.metric(), c.op(), v, c.value());
  }

  private static double value(Metric m, String text, int offset) throws ExpressionException {
    if (m.isTime()) {
      try {
        return Durations.parseMillis(text);
      } catch (IllegalArgumentException e) {
        throw new ExpressionException(offset, e.getMessage() + "; " + m + " is a duration");
      }
    }
    boolean percent = m.kind() == Metric.Kind.UTILIZATION && text.endsWith("%");
    try {
      double v = new BigDecimal(percent ? text.substring(0, text.length() - 1).strip() : text).doubleValue();
      return percent ? v / 100 : v;
    } catch (NumberFormatException e) {
      throw new ExpressionException(offset, "expected a number" + (m.kind() == Metric.Kind.UTILIZATION
          ? " such as 0.8 or 80%" : "") + ", got '" + text + "'");
    }
  }

  @Override
  public Outcome evaluate(ResultView result, boolean checked) {
    OptionalDouble measured = metric.value(result);
    if (measured.isEmpty()) {
      String why = metric.kind() == Metric.Kind.LATENCY ? "no samples" : "no capacity of that resource";
      return new Outcome(name, Outcome.Status.FAIL, "no value (" + why + "), expected " + op.symbol() + " "
          + valueText, at);
    }
    double m = measured.getAsDouble();
    if (op.holds(m, value)) {
      return new Outcome(name, Outcome.Status.PASS, "measured " + metric.show(m), at);
    }
    String by = op == Op.NE ? "" : " (" + metric.show(Math.abs(m - value)) + (m > value ? " too high)" : " too low)");
    return new Outcome(name, Outcome.Status.FAIL, "measured " + metric.show(m) + ", expected " + op.symbol() + " "
        + valueText + by, at);
  }
}
