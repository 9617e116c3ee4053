package batchsim.scenarios;

import batchsim.core.model.AutoscalingSpec;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.LongDistribution;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.workloads.ArrivalProcess;
import batchsim.workloads.Distribution;
import batchsim.workloads.WorkloadClass;
import batchsim.workloads.trace.TraceFiles;
import java.io.IOException;
import java.io.Reader;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What a bound scenario will ask of a run — nodes, workloads, timeline events, sample rows and heap — estimated
 * from its numbers without doing any of the work (no arrival is drawn, no node made; a trace's lines are only
 * counted), and refused when it exceeds the {@link RunLimits}. Each refusal points at the biggest contributor and
 * says what to change.
 */
final class Budget {
  /** Heap a node holds at most: its spec, index entries, allocations and pod list (measured well below). */
  static final long NODE_BYTES = 4 << 10;
  /** Heap a live workload holds: its spec, pod sets, engine entry and record (measured well below). */
  static final long WORKLOAD_BYTES = 1 << 10;
  /** Heap a time-series sample row holds, with its per-queue columns. */
  static final long SAMPLE_ROW_BYTES = 512;

  private final Node root;
  private final Spec.Scenario s;
  private final RunLimits limits;
  private final Problems problems;
  /** The end of the run's clock when it is known: the horizon, else the latest finite end of anything. */
  private final long spanMs;

  /** One quantity's estimate and where most of it comes from. */
  private static final class Tally {
    double total;
    double biggest = -1;
    Node at;

    void add(double n, Node where) {
      total += n;
      if (n > biggest && where != null) {
        biggest = n;
        at = where;
      }
    }
  }

  private Budget(Node root, Spec.Scenario s, List<TimelineEvent> events, RunLimits limits, Problems problems) {
    this.root = root;
    this.s = s;
    this.limits = limits;
    this.problems = problems;
    this.spanMs = span(s, events);
  }

  /**
   * Checks the estimates of a scenario bound without problems against {@code limits}; returns the estimated heap
   * in bytes (what a pod running it must give the JVM, {@code sweep --emit k8s}), 0 when a count was refused.
   */
  static long check(Node root, Spec.Scenario s, List<TimelineEvent> events, List<AutoscalingSpec> autoscaling,
      RunLimits limits, Problems problems) {
    return new Budget(root, s, events, limits, problems).check(events, autoscaling);
  }

  private long check(List<TimelineEvent> events, List<AutoscalingSpec> autoscaling) {
    Tally nodes = nodes(events, autoscaling);
    Tally timeline = events(events);
    Tally workloads = workloads();
    double samples = s.sampleIntervalMs() > 0 && spanMs != SimulationSpec.NO_HORIZON
        ? (double) spanMs / s.sampleIntervalMs() : 0;
    int before = problems.count();
    over(nodes, limits.nodes(), "nodes", "node",
        "lower node pool counts, addNodes counts or repetitions, or autoscaling max");
    over(timeline, limits.events(), "events", "timeline event", "lengthen every, or bring until or the horizon closer");
    over(workloads, limits.workloads(), "workloads", "workload", "lower the rate or count, or shorten the window");
    if (samples > limits.samples()) {
      Node at = field(root, "sampleInterval"); // set, since there are samples
      problems.at(at, "the run would record " + amount(samples) + " sample rows (one every "
          + ms(s.sampleIntervalMs()) + " over " + ms(spanMs) + "), more than the limit of "
          + RunLimits.count(limits.samples()) + "; lengthen sampleInterval or shorten the horizon, or raise the limit "
          + "with --limits samples=" + suggestion(samples));
    }
    if (problems.count() != before) {
      return 0;
    }
    double need = nodes.total * NODE_BYTES + workloads.total * WORKLOAD_BYTES + samples * SAMPLE_ROW_BYTES;
    memory(need, nodes.total, workloads.total, samples);
    return (long) Math.min(Math.ceil(need), Long.MAX_VALUE);
  }

  /** The heap estimate: every node, every workload live at once (a backlog can hold them all), every sample. */
  private void memory(double need, double nodes, double workloads, double samples) {
    if (limits.memoryPercent() > 100) {
      return;
    }
    long max = Runtime.getRuntime().maxMemory();
    double allowed = max / 100.0 * limits.memoryPercent();
    if (need > allowed) {
      int share = (int) Math.ceil(Math.min(need * 100 / max, 101));
      problems.report(root.location(), "", String.format(Locale.ROOT, "the run would need about %s of heap "
          + "(%s nodes × 4 KiB, %s workloads × 1 KiB, %s sample rows × 512 B), more than %d%% of the %s the JVM "
          + "may use; make the scenario smaller, give Java more heap (BATCHSIM_JAVA_OPTS=-Xmx...)%s", bytes(need),
          amount(nodes), amount(workloads), amount(samples), limits.memoryPercent(), bytes(max),
          share > 100 ? "" : ", or raise the share with --limits memory=" + share + "%"));
    }
  }

  private Tally nodes(List<TimelineEvent> events, List<AutoscalingSpec> autoscaling) {
    Tally t = new Tally();
    for (Spec.NodePool p : s.nodePools()) {
      Node pool = itemNamed(field(field(root, "cluster"), "nodePools"), p.name());
      Node count = field(pool, "count");
      Node at = count != null ? count : field(pool, "topology") != null ? field(pool, "topology") : p.name();
      t.add(p.count(), at);
    }
    for (TimelineEvent e : events) {
      if (e.action() instanceof ClusterAction.AddNodes add) {
        Node item = event(e);
        Node count = field(field(item, "addNodes"), "count");
        t.add((double) add.count() * repetitions(e), count != null ? count : item);
      }
    }
    for (AutoscalingSpec a : autoscaling) {
      int count = s.nodePools().stream().filter(p -> p.name().text().equals(a.pool())).mapToInt(Spec.NodePool::count)
          .sum();
      t.add(Math.max(0, a.max() - count), field(root, "autoscaling"));
    }
    return t;
  }

  private Tally events(List<TimelineEvent> events) {
    Tally t = new Tally();
    for (TimelineEvent e : events) {
      Node item = event(e);
      t.add(repetitions(e), field(item, "every") != null ? field(item, "every") : item);
    }
    return t;
  }

  private Tally workloads() {
    Tally t = new Tally();
    for (Spec.WorkloadClass wc : s.workloadClasses()) {
      t.add(generated(wc), wc.arrivalAt() != null ? wc.arrivalAt() : wc.name());
    }
    t.add(s.listedWorkloads().size(), field(field(root, "workloads"), "list"));
    for (TraceBinder.Trace tr : s.traces()) {
      if (tr.ok() && tr.format() != null) {
        t.add(lines(tr), tr.at());
      }
    }
    return t;
  }

  /** Workloads a class makes: its count, or its rate over its window, whichever is smaller. */
  private double generated(Spec.WorkloadClass wc) {
    double byCount = wc.count() == WorkloadClass.UNLIMITED ? Double.POSITIVE_INFINITY : wc.count();
    long end = Math.min(wc.untilMs(), s.horizonMs());
    double window = end == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : Math.max(0, end - wc.startMs());
    double byRate = Double.POSITIVE_INFINITY;
    if (wc.arrival() instanceof ArrivalProcess.Poisson p) {
      byRate = window / p.meanGapMs();
    } else if (wc.arrival() instanceof ArrivalProcess.FixedInterval f) {
      byRate = f.intervalMs() == 0 ? Double.POSITIVE_INFINITY : window / f.intervalMs();
    } else if (wc.arrival() instanceof ArrivalProcess.ExplicitTimes x) {
      byRate = x.offsetsMs().size();
    }
    double n = Math.min(byCount, byRate);
    return Double.isInfinite(n) ? 0 : n; // endless classes are refused by the validator
  }

  /** Times an event fires: once, or once per mean gap from {@code at} to its until or the horizon. */
  private double repetitions(TimelineEvent e) {
    if (e.every() == null) {
      return 1;
    }
    long end = Math.min(e.untilMs(), spanMs);
    if (end == Long.MAX_VALUE || end < e.atMs()) {
      return 1;
    }
    return 1 + (end - e.atMs()) / Math.max(1, mean(e.every()));
  }

  private static double mean(LongDistribution d) {
    return d instanceof Distribution known ? known.mean() : d.sample(new SplittableRandom(0));
  }

  /** Lines of a trace file (decompressed): an upper bound on its jobs, read without parsing. */
  private double lines(TraceBinder.Trace tr) {
    long n = 0;
    char[] buf = new char[1 << 16];
    try (Reader r = TraceFiles.open(tr.file(), tr.displayName())) {
      for (int k; (k = r.read(buf)) > 0; ) {
        for (int i = 0; i < k; i++) {
          n += buf[i] == '\n' ? 1 : 0;
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0; // the binder already read it; a file that changed since is the run's to report
    }
    return n;
  }

  /** The horizon, else the latest finite end the scenario names (classes' until, events' at and until). */
  private static long span(Spec.Scenario s, List<TimelineEvent> events) {
    if (s.horizonMs() != SimulationSpec.NO_HORIZON) {
      return s.horizonMs();
    }
    long end = -1;
    for (Spec.WorkloadClass wc : s.workloadClasses()) {
      end = wc.untilMs() == Long.MAX_VALUE ? end : Math.max(end, wc.untilMs());
    }
    for (TimelineEvent e : events) {
      end = Math.max(end, e.untilMs() == Long.MAX_VALUE ? e.atMs() : e.untilMs());
    }
    return end < 0 ? SimulationSpec.NO_HORIZON : end;
  }

  private void over(Tally t, long limit, String key, String noun, String change) {
    if (t.total <= limit) {
      return;
    }
    Node at = t.at;
    problems.report(at == null ? root.location() : at.location(), at == null ? "" : at.path(),
        "the run would make " + amount(t.total) + " " + noun + "s, more than the limit of " + RunLimits.count(limit)
        + (at == null || t.biggest >= t.total ? "" : " (" + amount(t.biggest) + " of them from here)") + "; " + change
        + ", or raise the limit with --limits " + key + "=" + suggestion(t.total));
  }

  /** The {@code events:} item an event was bound from, matched by the location its source names. */
  private Node event(TimelineEvent e) {
    Node list = field(root, "events");
    if (list instanceof ListNode l && e.source() != null) {
      for (Node item : l.items()) {
        if (e.source().equals(item.location() + ": " + item.path())) {
          return item;
        }
      }
    }
    return list;
  }

  private static Node field(Node n, String key) {
    return n instanceof MapNode m ? m.get(key) : null;
  }

  private static Node itemNamed(Node list, Node name) {
    if (list instanceof ListNode l) {
      for (Node item : l.items()) {
        Node n = field(item, "name");
        if (n != null && n.location().equals(name.location())) {
          return item;
        }
      }
    }
    return null;
  }

  /** A limit that lets this estimate through, as a plain number for the flag. */
  private static String suggestion(double n) {
    return n >= 9.2e18 ? "off" : String.format(Locale.ROOT, "%.0f", Math.ceil(n));
  }

  private static String amount(double n) {
    return n >= 1e15 ? String.format(Locale.ROOT, "%.1e", n) : RunLimits.count((long) Math.ceil(n));
  }

  private static String bytes(double b) {
    return b >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GiB", b / (1L << 30))
        : String.format(Locale.ROOT, "%.0f MiB", b / (1L << 20));
  }

  private static String ms(long ms) {
    return batchsim.core.model.Durations.format(ms);
  }
}
