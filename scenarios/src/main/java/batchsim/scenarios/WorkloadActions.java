package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.ElasticAction;
import batchsim.core.model.WorkloadAction;
import batchsim.core.model.WorkloadAction.CheckVerdict;
import batchsim.core.model.WorkloadAction.ProvisioningCondition;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's workloads edited by name mid-run: the job finishes, fails or is deleted, {@code spec.active} flips,
 * its priority or LocalQueue changes, and admission check verdicts and ProvisioningRequest conditions are set.
 * A name no listed workload, workload class or trace can produce is refused here; whether it exists at that
 * time is the engine's to check.
 */
final class WorkloadActions extends ActionFamily {
  static final List<String> KEYS = List.of("finishWorkload", "failWorkload", "deleteWorkload", "deactivateWorkload",
      "activateWorkload", "setWorkloadPriority", "moveWorkload", "setAdmissionCheck", "setProvisioningRequest",
      "scaleWorkload");

  private final WorkloadNames names;
  private final Map<String, Integer> priorityClasses = new LinkedHashMap<>();
  /** Every admission check some ClusterQueue uses. */
  private final Set<String> checks = new LinkedHashSet<>();

  WorkloadActions(ActionContext ctx) {
    super(ctx, KEYS);
    this.names = new WorkloadNames(ctx.scenario);
    ctx.scenario.priorityClasses().forEach(p -> priorityClasses.put(p.name().text(), p.value()));
    ctx.scenario.clusterQueues().forEach(q -> checks.addAll(q.admissionChecks()));
  }

  @Override
  ClusterAction bind(String kind, Fields outer) {
    switch (kind) {
      case "setWorkloadPriority": {
        Fields f = outer.map(kind, "workload", "priority", "priorityClass");
        String w = workload(f);
        String which = f.exactlyOne(kind, "priority", "priorityClass");
        if (w == null || which == null) {
          return null;
        }
        if (which.equals("priority")) {
          return new WorkloadAction.SetPriority(w, f.int32("priority", 0, Integer.MIN_VALUE), null);
        }
        ScalarNode pc = f.reference("priorityClass", priorityClasses.keySet(), "priority class");
        return pc == null ? null : new WorkloadAction.SetPriority(w, priorityClasses.get(pc.text()), pc.text());
      }
      case "scaleWorkload": { // [elastic] the job's parallelism changes (Kueue workload slices)
        Fields f = outer.map(kind, "workload", "pods");
        String w = workload(f);
        f.required("pods");
        int pods = f.int32("pods", 0, 1);
        if (w == null || pods < 1 || ElasticBinder.refusedByGate(ctx.root, f.node(), ctx.problems)) {
          return null;
        }
        return new ElasticAction.Scale(w, pods);
      }
      case "moveWorkload": {
        Fields f = outer.map(kind, "workload", "localQueue");
        String w = workload(f);
        ScalarNode lq = f.reference("localQueue", ctx.localQueues, "LocalQueue");
        return w == null || lq == null ? null : new WorkloadAction.Move(w, lq.text());
      }
      case "setAdmissionCheck": {
        Fields f = outer.map(kind, "workload", "check", "state", "message");
        String w = workload(f);
        ScalarNode check = f.reference("check", checks, "admission check (of any ClusterQueue)");
        f.required("state");
        CheckVerdict state = f.enumeration("state", CheckVerdict.class, null);
        String message = f.string("message", "");
        return w == null || check == null || state == null ? null
            : new WorkloadAction.SetCheckState(w, check.text(), state, message);
      }
      case "setProvisioningRequest": {
        Fields f = outer.map(kind, "workload", "check", "condition");
        String w = workload(f);
        ScalarNode check = f.has("check") ? f.reference("check", checks, "admission check (of any ClusterQueue)") : null;
        f.required("condition");
        ProvisioningCondition c = f.enumeration("condition", ProvisioningCondition.class, null);
        if (checks.isEmpty()) {
          ctx.problems.at(f.node(), "no ClusterQueue has an admission check, so no ProvisioningRequest is ever made");
          return null;
        }
        return w == null || c == null || (f.has("check") && check == null) ? null
            : new WorkloadAction.SetProvisioningCondition(w, check == null ? null : check.text(), c);
      }
      default: {
        String w = workload(outer.map(kind, "workload"));
        if (w == null) {
          return null;
        }
        return switch (kind) {
          case "finishWorkload" -> new WorkloadAction.Finish(w, true);
          case "failWorkload" -> new WorkloadAction.Finish(w, false);
          case "deleteWorkload" -> new WorkloadAction.Delete(w);
          case "deactivateWorkload" -> new WorkloadAction.SetActive(w, false);
          default -> new WorkloadAction.SetActive(w, true);
        };
      }
    }
  }

  /** The workload named, when some source of the scenario can produce that name; null after a problem. */
  private String workload(Fields f) {
    ScalarNode s = f.requiredName("workload");
    if (s == null) {
      return null;
    }
    String why = names.unknown(s.text());
    if (why != null) {
      ctx.problems.at(s, why);
      return null;
    }
    return s.text();
  }
}
