package batchsim.scenarios;

import batchsim.core.model.Durations;
import batchsim.core.model.ElasticAction;
import batchsim.core.model.TimelineEvent;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.List;

/**
 * Elastic jobs (Kueue feature gate ElasticJobsViaWorkloadSlices): a workload class's {@code scaling:} pattern
 * and the gate itself. Kueue makes workload slices only with the gate on (beta, on by default at the pinned
 * commit), only for jobs without partial admission (its webhook refuses a parallelism change then), and
 * without TAS unless ElasticJobsViaWorkloadSlicesWithTAS (not modelled): what Kueue would not scale is refused
 * here, at the field that asks for it.
 */
final class ElasticBinder {
  static final String GATE = "ElasticJobsViaWorkloadSlices";

  private ElasticBinder() {}

  /** {@code kueue.featureGates.ElasticJobsViaWorkloadSlices} (a bad value is reported by the Kueue block). */
  static boolean gateOn(Node root) {
    Node v = root instanceof MapNode m && m.get("kueue") instanceof MapNode k
        && k.get("featureGates") instanceof MapNode g ? g.get(GATE) : null;
    Boolean on = v == null ? null : Values.bool(v, new Problems()); // any spelling Values.bool accepts
    return on == null || on;
  }

  /** Scaling patterns are Kueue's (workload slices): refused, located, when the scenario runs under Volcano. */
  static void refuseUnderVolcano(Spec.Scenario scenario, Problems problems) {
    for (Spec.WorkloadClass c : scenario.workloadClasses()) {
      if (!c.scaling().isEmpty()) {
        problems.at(c.scalingNode(), "scaling is Kueue's elastic jobs (workload slices, feature gate " + GATE
            + "); this scenario runs under Volcano");
      }
    }
  }

  /** Refuses a scaling request when the gate is off (Kueue would not create workload slices). */
  static boolean refusedByGate(Node root, Node at, Problems problems) {
    if (gateOn(root)) {
      return false;
    }
    problems.at(at, "scaling a running job needs Kueue's feature gate " + GATE
        + " (kueue.featureGates." + GATE + " is false: Kueue would not create workload slices)");
    return true;
  }

  /**
   * A class's {@code scaling:} list of {@code {after: <running time>, pods: <count>}}, in increasing
   * {@code after}; empty when absent or after a problem.
   */
  static List<ElasticAction.Step> steps(Node node, List<Spec.PodSet> podSets, Problems problems) {
    List<ElasticAction.Step> out = new ArrayList<>();
    if (node == null) {
      return out;
    }
    long last = -1;
    for (Node n : Fields.items(node, problems)) {
      Fields f = Fields.of(n, problems, "after", "pods");
      f.required("after");
      f.required("pods");
      long after = f.duration("after", -1);
      int pods = f.int32("pods", 0, 1);
      if (after >= 0 && after <= last) {
        problems.at(f.get("after"), "after " + Durations.format(after) + " must come after the previous step's "
            + Durations.format(last));
      }
      if (after >= 0 && pods > 0) {
        out.add(new ElasticAction.Step(after, pods));
        last = after;
      }
    }
    String why = podSets.size() != 1 ? "the class has " + podSets.size()
        + " pod sets; scaling changes a Job's parallelism, its one pod set"
        : podSets.get(0).minCount() >= 0 && podSets.get(0).minCount() < podSets.get(0).count() ? "the class's pod set has minCount (partial admission); Kueue's "
            + "webhook refuses a parallelism change of such a job unless it is suspended"
        : podSets.get(0).topology() != null ? "the class's pod set requests a topology (TAS); elastic jobs with "
            + "TAS need feature gate ElasticJobsViaWorkloadSlicesWithTAS, which batchsim does not model"
        : null;
    if (why != null) {
      problems.at(node, why);
      out.clear();
    }
    return out;
  }

  /** Each class's pattern, installed at the run's start (a timeline event at 0 the engine keeps). */
  static void classPatterns(Node root, Spec.Scenario scenario, Problems problems, List<TimelineEvent> events) {
    for (Spec.WorkloadClass c : scenario.workloadClasses()) {
      if (c.scaling().isEmpty() || c.name() == null || refusedByGate(root, c.scalingNode(), problems)) {
        continue;
      }
      events.add(new TimelineEvent(0, null, Long.MAX_VALUE,
          new ElasticAction.ClassPattern(c.name().text(), c.scaling()),
          c.scalingNode().location() + ": " + c.scalingNode().path()));
    }
  }
}
