package batchsim.scenarios.expect;

import batchsim.core.model.Durations;
import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.yaml.Location;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * {@code at(TIME, TARGET) OP VALUE}: a recorded status field at a virtual time, e.g.
 * {@code at(5m, workload(team-a/wl1).conditions[Admitted].status) == True}. The value at TIME is the one in the
 * object's last record at or before TIME. Numbers and Kubernetes quantities ("8", "500m", "64Gi") compare as
 * numbers with every operator; anything else compares as text, exactly, with {@code ==} and {@code !=} (quotes
 * optional; condition statuses are {@code True}/{@code False} as Kueue writes them; {@code spec.active} is a
 * boolean and matches {@code true} or {@code True}).
 */
record AtStatus(String name, Location at, long atMs, StatusPath path, Op op, String expected) implements Expectation {

  static AtStatus of(String text, Location at, ExpressionParser.AtComparison c) throws ExpressionException {
    String v = c.value();
    if (v.startsWith("\"")) {
      if (v.length() < 2 || !v.endsWith("\"")) {
        throw new ExpressionException(c.valueOffset(), "unterminated quoted value " + v);
      }
      v = v.substring(1, v.length() - 1);
    }
    boolean ordered = c.op() != Op.EQ && c.op() != Op.NE;
    if (ordered && number(v) == null) {
      throw new ExpressionException(c.valueOffset(), "'" + c.op().symbol() + "' compares numbers; '" + v
          + "' is not one (use == or != for text)");
    }
    return new AtStatus(text.strip(), at, c.atMs(), (StatusPath) c.target(), c.op(), v);
  }

  @Override
  public Outcome evaluate(ResultView result, boolean checked) {
    return new Outcome(name, Outcome.Status.SKIP, "not evaluated: the run made no status record", at);
  }

  @Override
  public Outcome evaluate(ResultView result, boolean checked, StatusWatch watch) {
    StatusWatch.Seen seen = watch == null ? null : watch.seen(this);
    if (seen == null) {
      return evaluate(result, checked);
    }
    String when = "at " + Durations.format(atMs);
    if (seen.record == null) {
      return fail(seen.firstMs < 0 ? path.object() + " was never recorded"
          : path.object() + " was not recorded yet " + when + " (first recorded at " + Durations.format(seen.firstMs)
          + ")");
    }
    Object v = path.resolve(seen.record.spec(), seen.record.status());
    if (v instanceof StatusPath.Missing m) {
      return fail(when + ", " + path.object() + " has no " + m.part() + " in " + m.under() + " (last recorded at "
          + Durations.format(seen.record.timeMs()) + ")");
    }
    if (v instanceof Map<?, ?> || v instanceof List<?>) {
      return fail(path.field() + " is not a single value " + when);
    }
    String actual = v instanceof Boolean b ? (b ? "true" : "false") : String.valueOf(v);
    BigDecimal a = number(actual);
    BigDecimal e = number(expected);
    boolean holds;
    if (a != null && e != null) {
      holds = op.holds(a.compareTo(e), 0);
    } else if (op == Op.EQ || op == Op.NE) {
      boolean equal = v instanceof Boolean ? actual.equalsIgnoreCase(expected) : actual.equals(expected);
      holds = (op == Op.EQ) == equal;
    } else {
      return fail("measured " + show(actual) + " " + when + ": not a number, cannot compare with " + op.symbol());
    }
    String detail = "measured " + (v instanceof Boolean ? actual : show(actual)) + " " + when + " (recorded at " + Durations.format(seen.record.timeMs())
        + ")";
    return holds ? new Outcome(name, Outcome.Status.PASS, detail, at)
        : fail(detail + ", expected " + op.symbol() + " " + show(expected));
  }

  private Outcome fail(String detail) {
    return new Outcome(name, Outcome.Status.FAIL, detail, at);
  }

  private static String show(String s) {
    return number(s) != null ? s : "\"" + s + "\"";
  }

  /** A plain number or a Kubernetes quantity as a number, else null. */
  static BigDecimal number(String s) {
    String t = s.strip();
    String[][] suffixes = {{"Ki", "1024"}, {"Mi", "1048576"}, {"Gi", "1073741824"}, {"Ti", "1099511627776"},
        {"Pi", "1125899906842624"}, {"Ei", "1152921504606846976"}, {"n", "1e-9"}, {"u", "1e-6"}, {"m", "0.001"}, {"k", "1000"}, {"M", "1e6"},
        {"G", "1e9"}, {"T", "1e12"}, {"P", "1e15"}, {"E", "1e18"}};
    try {
      for (String[] x : suffixes) {
        if (t.endsWith(x[0]) && t.length() > x[0].length()) {
          return new BigDecimal(t.substring(0, t.length() - x[0].length())).multiply(new BigDecimal(x[1]));
        }
      }
      return new BigDecimal(t);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
