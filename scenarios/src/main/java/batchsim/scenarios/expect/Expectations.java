package batchsim.scenarios.expect;

import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A scenario's {@code expect:} list and {@code baseline:} block: assertions about the run, in simulated
 * time, evaluated after it. Items of {@code expect} are expressions ({@code p95(wait{queue=team-a}) < 20m},
 * see {@link Metric}) or {@code invariants: clean}. Immutable.
 */
public final class Expectations {
  public static final String EXPECT = "expect";
  public static final String BASELINE = "baseline";
  public static final Expectations NONE = new Expectations(List.of());

  private final List<Expectation> checks;

  private Expectations(List<Expectation> checks) {
    this.checks = List.copyOf(checks);
  }

  /** Reads {@code expect} and {@code baseline} from a document root; problems are reported with locations. */
  public static Expectations parse(Node root, IssueSink sink) {
    if (!(root instanceof MapNode m)) {
      return NONE;
    }
    List<Expectation> out = new ArrayList<>();
    Node expect = m.get(EXPECT);
    if (expect != null && !expect.isNull()) {
      if (expect instanceof ListNode l) {
        l.items().forEach(item -> item(item, out, sink));
      } else {
        sink.report(expect.location(), expect.path(), "expected a list of expectations, got " + expect.describe());
      }
    }
    out.addAll(Baseline.parse(m.get(BASELINE), sink));
    return new Expectations(out);
  }

  private static void item(Node item, List<Expectation> out, IssueSink sink) {
    if (item instanceof ScalarNode s && !s.isNull()) {
      try {
        out.add(ExpressionParser.isAt(s.text()) ? at(s.text(), s.location()) : Threshold.parse(s.text(), s.location()));
      } catch (ExpressionException e) {
        sink.report(at(s.location(), e.offset()), s.path(), e.getMessage());
      }
      return;
    }
    if (item instanceof MapNode m && m.entries().size() == 1 && m.get("invariants") != null) {
      Node v = m.get("invariants");
      if (v instanceof ScalarNode s && s.text().equals("clean")) {
        out.add(new InvariantsClean(m.location()));
      } else {
        sink.report(v.location(), v.path(), "the only value of 'invariants' is clean, got " + v.describe());
      }
      return;
    }
    sink.report(item.location(), item.path(), "expected an expectation such as 'p95(wait{queue=team-a}) < 20m' "
        + "or 'invariants: clean', got " + item.describe());
  }

  /** {@code at(TIME, TARGET) OP VALUE}: a status field or a Kueue metric at a virtual time. */
  private static Expectation at(String text, Location loc) throws ExpressionException {
    ExpressionParser.AtComparison c = ExpressionParser.at(text);
    return c.target() instanceof MetricSelector m ? AtMetric.of(text, loc, c, m) : AtStatus.of(text, loc, c);
  }

  /** {@code base} moved {@code offset} characters right on its line (a position inside an expression). */
  static Location at(Location base, int offset) {
    return base.line() == 0 || offset < 0 ? base : new Location(base.file(), base.line(), base.column() + offset);
  }

  /** Reports queues, resources and flavors the expressions name that the scenario does not define. */
  public void validate(Collection<String> queues, Collection<String> resources, Collection<String> flavors,
      IssueSink sink) {
    for (Expectation e : checks) {
      if (e instanceof Threshold t) {
        Metric m = t.metric();
        if (!ResultView.OVERALL.equals(m.queue()) && !queues.contains(m.queue())) {
          sink.report(at(t.at(), m.queueOffset()), "", "unknown ClusterQueue '" + m.queue() + "' " + known(queues));
        }
        if (m.resource() != null && !resources.contains(m.resource())) {
          sink.report(at(t.at(), m.resourceOffset()), "", "unknown resource '" + m.resource() + "' "
              + known(resources));
        }
        if (m.flavor() != null && !ResultView.OVERALL.equals(m.flavor()) && !flavors.contains(m.flavor())) {
          sink.report(at(t.at(), m.flavorOffset()), "", "unknown ResourceFlavor '" + m.flavor() + "' "
              + known(flavors));
        }
      }
    }
  }

  /**
   * Reports {@code at(...)} paths that cannot exist: an unknown ClusterQueue, LocalQueue or Cohort, a field,
   * condition type, flavor or resource the status record does not have. (A Workload's name can only be
   * checked by the run: a missing one fails its expectation, saying so.)
   */
  public void validateStatusPaths(Collection<String> clusterQueues, Collection<String> localQueues,
      Collection<String> cohorts, Collection<String> resources, Collection<String> flavors, IssueSink sink) {
    for (Expectation e : checks) {
      if (e instanceof AtStatus a) {
        StatusPath p = a.path();
        String full = p.namespace() == null ? p.name() : p.namespace() + "/" + p.name();
        Collection<String> names = switch (p.kind()) {
          case "ClusterQueue" -> clusterQueues;
          case "LocalQueue" -> localQueues;
          case "Cohort" -> cohorts;
          default -> null;
        };
        // A LocalQueue declared without a namespace is in "default".
        boolean known = names == null || names.contains(full)
            || ("default".equals(p.namespace()) && names.contains(p.name()));
        if (!known) {
          sink.report(at(a.at(), p.nameOffset()), "", "unknown " + p.kind() + " '" + full + "' " + known(names));
          continue;
        }
        ExpressionException x = StatusSchema.check(p, flavors, resources);
        if (x != null) {
          sink.report(at(a.at(), x.offset()), "", x.getMessage());
        }
      }
    }
  }

  /** Reports every {@code at(...)} expectation: {@code why} the run cannot record the status they read. */
  public void refuseStatusPaths(String why, IssueSink sink) {
    for (Expectation e : checks) {
      if (e instanceof AtStatus a) {
        sink.report(a.at(), "", why);
      }
    }
  }

  /** True when some expectation reads the status record ({@code at(...)}): the run must record it. */
  public boolean needsStatus() {
    return checks.stream().anyMatch(AtStatus.class::isInstance);
  }

  /** A fresh watch for one run's status record, or null when no expectation reads it. */
  public StatusWatch newStatusWatch() {
    return needsStatus() ? new StatusWatch(checks.stream().filter(AtStatus.class::isInstance)
        .map(AtStatus.class::cast).toList()) : null;
  }

  private static String known(Collection<String> names) {
    return names.isEmpty() ? "(none defined)" : "(known: " + String.join(", ", names) + ")";
  }

  public boolean isEmpty() {
    return checks.isEmpty();
  }

  public int size() {
    return checks.size();
  }

  /** True when an expectation needs the run to be made with the invariant checker. */
  public boolean needsInvariantCheck() {
    return checks.stream().anyMatch(InvariantsClean.class::isInstance);
  }

  /** The verdicts, in the order written (expect items first, then baseline checks). */
  public List<Outcome> evaluate(ResultView result, boolean invariantsChecked) {
    return evaluate(result, invariantsChecked, null);
  }

  /** As above; {@code status} is the run's watch from {@link #newStatusWatch} (null: at(...) items are skipped). */
  public List<Outcome> evaluate(ResultView result, boolean invariantsChecked, StatusWatch status) {
    return checks.stream().map(c -> c.evaluate(result, invariantsChecked, status)).toList();
  }

  /** The verdicts when the run stopped at an invariant violation: that fails, the rest are skipped. */
  public List<Outcome> afterViolation(String violation) {
    List<Outcome> out = new ArrayList<>();
    for (Expectation c : checks) {
      out.add(c instanceof InvariantsClean ? new Outcome(c.name(), Outcome.Status.FAIL, violation, c.at())
          : new Outcome(c.name(), Outcome.Status.SKIP, "not evaluated: the run stopped at an invariant violation",
              c.at()));
    }
    return out;
  }
}
