package batchsim.scenarios.expect;

import batchsim.scenarios.compare.Counter;
import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.compare.Series;
import batchsim.scenarios.compare.Stat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Recursive descent over one expectation, {@code METRIC OP VALUE} (see {@link Metric} for metrics;
 * OP is one of {@code < <= > >= == !=}), keeping character offsets for located problems.
 */
final class ExpressionParser {
  private static final String STATS = "p50, p90, p95, p99, max, mean";

  private final String s;
  private int pos;

  private ExpressionParser(String s) {
    this.s = s;
  }

  /** A metric followed by nothing. */
  static Metric metric(String text) throws ExpressionException {
    ExpressionParser p = new ExpressionParser(text);
    Metric m = p.metric();
    p.skipWs();
    if (p.pos < text.length()) {
      throw new ExpressionException(p.pos, "unexpected '" + text.substring(p.pos) + "' after the metric");
    }
    return m;
  }

  /** The parts of {@code METRIC OP VALUE}; the value is checked by the caller, who knows its unit. */
  record Comparison(Metric metric, Op op, String value, int valueOffset) {}

  static Comparison comparison(String text) throws ExpressionException {
    ExpressionParser p = new ExpressionParser(text);
    Metric m = p.metric();
    p.skipWs();
    Op op = p.op();
    p.skipWs();
    int at = p.pos;
    String value = text.substring(at).strip();
    if (value.isEmpty()) {
      throw new ExpressionException(at, "missing the value to compare with after '" + op.symbol() + "'");
    }
    return new Comparison(m, op, value, at);
  }

  /** The parts of {@code at(TIME, TARGET) OP VALUE}. */
  record AtComparison(long atMs, AtTarget target, Op op, String value, int valueOffset) {}

  /** True when {@code text} is an assertion at a time, {@code at(...)}. */
  static boolean isAt(String text) {
    return text.strip().matches("(?s)at\\s*\\(.*");
  }

  static AtComparison at(String text) throws ExpressionException {
    ExpressionParser p = new ExpressionParser(text);
    p.skipWs();
    p.word(); // "at"
    p.expect('(', "after 'at'");
    p.skipWs();
    int tAt = p.pos;
    String time = p.until(",)").strip();
    long atMs;
    try {
      atMs = batchsim.core.model.Durations.parseMillis(time);
    } catch (IllegalArgumentException e) {
      throw new ExpressionException(tAt, e.getMessage() + "; at( takes a virtual time such as 5m or 1h30m");
    }
    p.expect(',', "after the time");
    AtTarget target = p.target();
    p.expect(')', "to close at(");
    p.skipWs();
    Op op = p.op();
    p.skipWs();
    int vAt = p.pos;
    String value = text.substring(vAt).strip();
    if (value.isEmpty()) {
      throw new ExpressionException(vAt, "missing the value to compare with after '" + op.symbol() + "'");
    }
    return new AtComparison(atMs, target, op, value, vAt);
  }

  /** {@code KIND(NAME)PATH}; see {@link StatusPath}. */
  private AtTarget target() throws ExpressionException {
    skipWs();
    int at = pos;
    String fn = word();
    skipWs();
    String kind = StatusPath.KINDS.get(fn);
    if (kind == null || peek() != '(') {
      if (peek() == '{' || fn.startsWith("kueue_")) {
        return metricSelector(fn, at);
      }
      throw new ExpressionException(at, fn.isEmpty() ? "expected workload(..), clusterQueue(..), localQueue(..) "
          + "or cohort(..) after the time" : "unknown object '" + fn + "' (expected workload, clusterQueue, "
          + "localQueue, cohort)");
    }
    pos++;
    skipWs();
    int nAt = pos;
    String name = until(")").strip();
    if (name.isEmpty()) {
      throw new ExpressionException(nAt, "expected a name in " + fn + "(..)");
    }
    expect(')', "to close " + fn + "(");
    String ns = null;
    if (StatusPath.namespaced(kind)) {
      int slash = name.indexOf('/');
      ns = slash < 0 ? "default" : name.substring(0, slash);
      name = name.substring(slash + 1);
    } else if (name.contains("/")) {
      throw new ExpressionException(nAt, kind + " is cluster-scoped: no namespace in " + fn + "(..)");
    }
    List<StatusPath.Segment> segments = new ArrayList<>();
    while (true) {
      int sAt = pos;
      if (peek() == '.') {
        pos++;
        String f = word();
        if (f.isEmpty()) {
          throw new ExpressionException(pos, "expected a field name after '.'");
        }
        segments.add(new StatusPath.Segment(f, false, sAt + 1));
      } else if (peek() == '[') {
        pos++;
        String key = until("]").strip();
        if (key.isEmpty()) {
          throw new ExpressionException(pos, "expected a key such as [Admitted] or [nvidia.com/gpu]");
        }
        expect(']', "to close [" + key);
        segments.add(new StatusPath.Segment(key, true, sAt));
      } else {
        break;
      }
    }
    if (segments.isEmpty()) {
      throw new ExpressionException(pos, "expected a status field after " + fn + "(" + name + "), e.g. "
          + (kind.equals("Workload") ? ".conditions[Admitted].status" : ".pendingWorkloads"));
    }
    return new StatusPath(kind, ns, name, nAt, List.copyOf(segments));
  }

  /** {@code NAME} or {@code NAME{label="value",...}}; see {@link MetricSelector}. */
  private MetricSelector metricSelector(String name, int nameAt) throws ExpressionException {
    java.util.TreeMap<String, String> labels = new java.util.TreeMap<>();
    java.util.Map<String, Integer> offsets = new java.util.HashMap<>();
    if (peek() == '{') {
      pos++;
      skipWs();
      while (peek() != '}') {
        int lAt = pos;
        String label = word();
        if (label.isEmpty()) {
          throw new ExpressionException(lAt, "expected a label name in " + name + "{..}");
        }
        skipWs();
        expect('=', "after label " + label);
        skipWs();
        expect('"', "to open the value of " + label + " (label values are quoted)");
        String value = until("\"");
        expect('"', "to close the value of " + label);
        if (labels.put(label, value) != null) {
          throw new ExpressionException(lAt, "label " + label + " given twice");
        }
        offsets.put(label, lAt);
        skipWs();
        if (peek() == ',') {
          pos++;
          skipWs();
        } else if (peek() != '}') {
          throw new ExpressionException(pos, "expected ',' or '}' in " + name + "{..}");
        }
      }
      pos++;
      skipWs();
    }
    MetricSelector m = new MetricSelector(name, labels, nameAt, offsets);
    Object[] problem = m.problem();
    if (problem != null) {
      throw new ExpressionException((Integer) problem[0], (String) problem[1]);
    }
    return m;
  }

  private Metric metric() throws ExpressionException {
    skipWs();
    int at = pos;
    String fn = word();
    if (fn.isEmpty()) {
      throw new ExpressionException(at, "expected a metric such as p95(wait) or utilization(nvidia.com/gpu)");
    }
    expect('(', "after '" + fn + "'");
    Stat stat = Stat.of(fn);
    if (stat != null) {
      skipWs();
      int sAt = pos;
      String w = word();
      Series series = Series.of(w);
      if (series == null) {
        throw new ExpressionException(sAt, "unknown series '" + w + "' (expected wait, start, completion)");
      }
      int[] qAt = {-1};
      String queue = selector(qAt);
      expect(')', "to close " + fn + "(");
      return new Metric(Metric.Kind.LATENCY, stat, series, null, null, null, queue, qAt[0], -1, -1);
    }
    if (fn.equals("count")) {
      skipWs();
      int cAt = pos;
      String w = word();
      Counter counter = Counter.of(w);
      if (counter == null) {
        throw new ExpressionException(cAt, "unknown count '" + w + "' (expected " + Arrays.stream(Counter.values())
            .map(Counter::word).collect(Collectors.joining(", ")) + ")");
      }
      int[] qAt = {-1};
      String queue = selector(qAt);
      expect(')', "to close count(");
      return new Metric(Metric.Kind.COUNT, null, null, counter, null, null, queue, qAt[0], -1, -1);
    }
    if (fn.equals("utilization")) {
      skipWs();
      int rAt = pos;
      String resource = until(",)").strip();
      if (resource.isEmpty()) {
        throw new ExpressionException(rAt, "utilization( needs a resource, e.g. utilization(nvidia.com/gpu)");
      }
      String flavor = ResultView.OVERALL;
      int fAt = -1;
      if (peek() == ',') {
        pos++;
        skipWs();
        fAt = pos;
        flavor = until(")").strip();
        if (flavor.isEmpty()) {
          throw new ExpressionException(fAt, "expected a flavor after ','");
        }
      }
      expect(')', "to close utilization(");
      return new Metric(Metric.Kind.UTILIZATION, null, null, null, resource, flavor, ResultView.OVERALL, -1, rAt,
          fAt);
    }
    throw new ExpressionException(at, "unknown function '" + fn + "' (expected " + STATS + ", utilization, count)");
  }

  /** An optional <code>{queue=NAME}</code>; the queue, or OVERALL. */
  private String selector(int[] queueAt) throws ExpressionException {
    skipWs();
    if (peek() != '{') {
      return ResultView.OVERALL;
    }
    pos++;
    skipWs();
    int kAt = pos;
    String key = word();
    if (!key.equals("queue")) {
      throw new ExpressionException(kAt, "unknown selector '" + key + "' (expected queue=NAME)");
    }
    skipWs();
    expect('=', "after 'queue'");
    skipWs();
    queueAt[0] = pos;
    String queue = until("}").strip();
    if (queue.isEmpty()) {
      throw new ExpressionException(pos, "expected a ClusterQueue name after 'queue='");
    }
    expect('}', "to close the selector");
    skipWs();
    return queue;
  }

  private Op op() throws ExpressionException {
    for (Op op : Op.values()) { // two-character operators are listed first
      if (s.startsWith(op.symbol(), pos)) {
        pos += op.symbol().length();
        return op;
      }
    }
    if (peek() == '=') {
      throw new ExpressionException(pos, "use '==' to compare for equality");
    }
    throw new ExpressionException(pos, pos >= s.length() ? "missing a comparison (< <= > >= == !=) and a value"
        : "expected a comparison (< <= > >= == !=), got '" + s.substring(pos) + "'");
  }

  private String word() {
    int start = pos;
    while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
      pos++;
    }
    return s.substring(start, pos);
  }

  private String until(String stops) {
    int start = pos;
    while (pos < s.length() && stops.indexOf(s.charAt(pos)) < 0) {
      pos++;
    }
    return s.substring(start, pos);
  }

  private void expect(char c, String why) throws ExpressionException {
    skipWs();
    if (peek() != c) {
      throw new ExpressionException(pos, "expected '" + c + "' " + why
          + (pos < s.length() ? ", got '" + s.charAt(pos) + "'" : ""));
    }
    pos++;
  }

  private char peek() {
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  private void skipWs() {
    while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
      pos++;
    }
  }
}
