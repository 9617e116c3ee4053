package batchsim.scenarios.expect;

import batchsim.core.model.Durations;
import batchsim.scenarios.compare.Counter;
import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.compare.Series;
import batchsim.scenarios.compare.Stat;
import batchsim.scenarios.compare.SummaryFile;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * {@code baseline: {path: ..., tolerance: {...}}}: checks against a stored summary.json, read when the
 * scenario is loaded. {@code path} is relative to the file it is written in. Each tolerance key expands
 * to one check per ClusterQueue of the baseline and one overall (latencies and counts), or one per
 * resource on all nodes (utilization).
 */
final class Baseline {
  private static final List<String> KEYS = keys();

  private Baseline() {}

  private static List<String> keys() {
    List<String> out = new ArrayList<>();
    for (Series s : Series.values()) {
      for (Stat st : Stat.values()) {
        out.add(s.word() + "_" + st.word());
      }
    }
    out.add("utilization");
    for (Counter c : Counter.values()) {
      if (c != Counter.ARRIVED) {
        out.add(c.word());
      }
    }
    return List.copyOf(out);
  }

  static List<Expectation> parse(Node node, IssueSink sink) {
    List<Expectation> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (!(node instanceof MapNode m)) {
      sink.report(node.location(), node.path(), "expected a map with path and tolerance, got " + node.describe());
      return out;
    }
    m.entries().forEach((k, e) -> {
      if (!k.equals("path") && !k.equals("tolerance")) {
        sink.report(e.key().location(), e.key().path(), "unknown key '" + k + "' (expected one of path, tolerance)");
      }
    });
    SummaryFile summary = summary(m, sink);
    Node tol = m.get("tolerance");
    if (tol == null || tol.isNull()) {
      sink.report(m.location(), m.path(), "missing required field 'tolerance' (e.g. {wait_p95: 10%})");
      return out;
    }
    if (!(tol instanceof MapNode tm) || tm.entries().isEmpty()) {
      sink.report(tol.location(), tol.path(), "expected a map of metric: tolerance, e.g. {wait_p95: 10%}");
      return out;
    }
    tm.entries().forEach((key, e) -> {
      if (!KEYS.contains(key)) {
        sink.report(e.key().location(), e.key().path(), "unknown tolerance '" + key + "' (expected one of "
            + String.join(", ", KEYS) + ")");
        return;
      }
      if (!(e.value() instanceof ScalarNode v) || v.isNull()) {
        sink.report(e.value().location(), e.value().path(), "expected a tolerance such as 10% or an amount, got "
            + e.value().describe());
        return;
      }
      Tolerance tolerance = tolerance(v, key.contains("_"), sink); // only latency keys have a '_'
      if (tolerance == null || summary == null) {
        return;
      }
      for (Metric metric : metrics(key, summary)) {
        OptionalDouble base = metric.value(summary);
        if (base.isPresent()) {
          out.add(new BaselineCheck(e.key().location(), metric, base.getAsDouble(), tolerance.relative(),
              tolerance.amount(), v.text().strip()));
        }
      }
    });
    return out;
  }

  private static SummaryFile summary(MapNode m, IssueSink sink) {
    Node p = m.get("path");
    if (!(p instanceof ScalarNode ps) || ps.isNull() || ps.text().isBlank()) {
      sink.report((p == null ? m : p).location(), (p == null ? m : p).path(),
          "missing required field 'path' (a summary.json, or the run directory holding one)");
      return null;
    }
    try {
      return SummaryFile.read(resolve(ps));
    } catch (IOException e) {
      sink.report(ps.location(), ps.path(), "cannot read the baseline: " + e.getMessage());
      return null;
    }
  }

  /** A path written in a file is relative to that file; one given on the command line, to the working directory. */
  static Path resolve(ScalarNode p) {
    Location l = p.location();
    Path dir = l.line() == 0 ? null : Path.of(l.file()).getParent();
    return (dir == null ? Path.of(p.text()) : dir.resolve(p.text())).normalize();
  }

  /** The metrics {@code key} stands for in {@code summary}. */
  private static List<Metric> metrics(String key, SummaryFile summary) {
    List<Metric> out = new ArrayList<>();
    if (key.equals("utilization")) {
      for (ResultView.Utilization u : summary.utilization()) {
        if (u.flavor().equals(ResultView.OVERALL) && u.meanCapacity() > 0 && Double.isFinite(u.utilization())) {
          out.add(new Metric(Metric.Kind.UTILIZATION, null, null, null, u.resource(), ResultView.OVERALL,
              ResultView.OVERALL, -1, -1, -1));
        }
      }
      return out;
    }
    List<String> scopes = new ArrayList<>(summary.queues());
    scopes.add(ResultView.OVERALL);
    Counter counter = Counter.of(key);
    for (String q : scopes) {
      if (counter != null) {
        out.add(new Metric(Metric.Kind.COUNT, null, null, counter, null, null, q, -1, -1, -1));
      } else {
        int u = key.indexOf('_');
        out.add(new Metric(Metric.Kind.LATENCY, Stat.of(key.substring(u + 1)), Series.of(key.substring(0, u)), null,
            null, null, q, -1, -1, -1));
      }
    }
    return out;
  }

  /** A fraction of the baseline value ({@code relative}) or an absolute amount (ms for latencies). */
  private record Tolerance(boolean relative, double amount) {}

  /** The tolerance, or null after a report. */
  private static Tolerance tolerance(ScalarNode v, boolean time, IssueSink sink) {
    String text = v.text().strip();
    try {
      if (text.endsWith("%")) {
        double pct = new BigDecimal(text.substring(0, text.length() - 1).strip()).doubleValue();
        if (pct >= 0) {
          return new Tolerance(true, pct / 100);
        }
      } else if (time) {
        return new Tolerance(false, Durations.parseMillis(text));
      } else {
        double amount = new BigDecimal(text).doubleValue();
        if (amount >= 0) {
          return new Tolerance(false, amount);
        }
      }
    } catch (IllegalArgumentException e) { // NumberFormatException included
      // reported below
    }
    sink.report(v.location(), v.path(), "expected a tolerance: a percentage of the baseline such as 10%, or a "
        + (time ? "duration such as 5m" : "non-negative number") + ", got '" + text + "'");
    return null;
  }
}
