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
        out.add(Threshold.parse(s.text(), s.location()));
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
    return checks.stream().map(c -> c.evaluate(result, invariantsChecked)).toList();
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
