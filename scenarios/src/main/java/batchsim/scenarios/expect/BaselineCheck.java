package batchsim.scenarios.expect;

import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.tables.Format;
import batchsim.scenarios.yaml.Location;
import java.util.OptionalDouble;

/**
 * A metric must not be worse than in a stored baseline summary by more than a tolerance: a fraction of
 * the baseline value ({@code 10%}) or an absolute amount ({@code 5m}, {@code 0.05}, {@code 2}).
 */
record BaselineCheck(Location at, Metric metric, double base, boolean relative, double amount, String toleranceText)
    implements Expectation {

  @Override
  public String name() {
    return "baseline: " + metric + " within " + toleranceText;
  }

  /** How much worse than the baseline is allowed. */
  double allowed() {
    return relative ? amount * Math.abs(base) : amount;
  }

  @Override
  public Outcome evaluate(ResultView result, boolean checked) {
    OptionalDouble measured = metric.value(result);
    if (measured.isEmpty()) {
      return new Outcome(name(), Outcome.Status.FAIL, "no value in this run, baseline " + metric.show(base), at);
    }
    double v = measured.getAsDouble();
    String compared = "measured " + metric.show(v) + ", baseline " + metric.show(base) + " ("
        + Format.relative(base, v) + ")";
    double excess = metric.better().worseBy(base, v) - allowed();
    if (excess <= 1e-9 * Math.max(1, Math.abs(base))) {
      return new Outcome(name(), Outcome.Status.PASS, compared, at);
    }
    return new Outcome(name(), Outcome.Status.FAIL, compared + ", worse than the tolerance "
        + toleranceText + (relative ? " (" + metric.show(allowed()) + ")" : "") + " by " + metric.show(excess), at);
  }
}
