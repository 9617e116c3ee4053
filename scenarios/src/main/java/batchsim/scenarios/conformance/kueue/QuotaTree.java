package batchsim.scenarios.conformance.kueue;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.FungibilityPolicy;
import batchsim.core.model.FungibilityPreference;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceGroupSpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A case's quota tree: its cohorts and ClusterQueues, with the defaults of Kueue's test wrappers. */
final class QuotaTree {

  final List<CohortSpec> cohorts = new ArrayList<>();
  final List<ClusterQueueSpec> queues = new ArrayList<>();
  final Map<String, ClusterQueueSpec> queuesByName = new LinkedHashMap<>();
  private final Set<String> admissionChecks;

  /** {@code admissionChecks}: the names ClusterQueues may refer to. */
  QuotaTree(JsonNode spec, Set<String> admissionChecks) {
    this.admissionChecks = admissionChecks;
    for (JsonNode c : Nodes.list(spec, "cohorts")) {
      cohorts.add(cohort(c));
    }
    for (JsonNode q : Nodes.list(spec, "clusterQueues")) {
      ClusterQueueSpec s = clusterQueue(q);
      if (queuesByName.put(s.name(), s) != null) {
        throw CaseException.invalid("duplicate ClusterQueue " + s.name());
      }
      queues.add(s);
    }
  }

  String requireQueue(String name) {
    if (!queuesByName.containsKey(name)) {
      throw CaseException.invalid("unknown ClusterQueue " + name);
    }
    return name;
  }

  private ClusterQueueSpec clusterQueue(JsonNode q) {
    String name = Nodes.required(q, "name", "ClusterQueue");
    QueueingStrategy strategy = Nodes.enumValue(QueueingStrategy.class, q,
        Nodes.has(q, "queueingStrategy") ? "queueingStrategy" : "queueing", QueueingStrategy.BEST_EFFORT_FIFO);
    JsonNode fung = Nodes.has(q, "fungibility") ? q.get("fungibility") : q.get("flavorFungibility");
    List<String> checks = new ArrayList<>();
    for (JsonNode c : Nodes.list(q, "admissionChecks")) {
      String check = Nodes.text(c, "ClusterQueue " + name + " admissionChecks");
      if (!admissionChecks.contains(check)) {
        throw CaseException.invalid("ClusterQueue " + name + ": unknown admission check " + check);
      }
      checks.add(check);
    }
    return new ClusterQueueSpec(name, Nodes.string(q, "cohort", null), groups(q, "ClusterQueue " + name), strategy,
        preemption(q.get("preemption"), name), fungibility(fung, name), weight(q), List.copyOf(checks));
  }

  private CohortSpec cohort(JsonNode c) {
    String name = Nodes.required(c, "name", "cohort");
    return new CohortSpec(name, Nodes.string(c, "parent", null), groups(c, "cohort " + name), weight(c));
  }

  private static double weight(JsonNode n) {
    JsonNode w = Nodes.has(n, "fairWeight") ? n.get("fairWeight") : n.path("fairSharing").get("weight");
    if (w == null || w.isNull()) {
      return 1.0;
    }
    try {
      return Double.parseDouble(Nodes.text(w, "fairWeight"));
    } catch (NumberFormatException e) {
      throw CaseException.invalid("fairWeight: not a number: " + w);
    }
  }

  private static List<ResourceGroupSpec> groups(JsonNode owner, String where) {
    List<ResourceGroupSpec> out = new ArrayList<>();
    for (JsonNode g : Nodes.list(owner, "resourceGroups")) {
      List<String> covered = new ArrayList<>();
      for (JsonNode r : Nodes.list(g, "covered")) {
        covered.add(Nodes.text(r, "covered"));
      }
      List<FlavorQuotaSpec> fqs = new ArrayList<>();
      for (JsonNode f : Nodes.list(g, "flavors")) {
        String flavor = Nodes.required(f, "flavor", where);
        Map<String, QuotaSpec> quotas = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : Nodes.map(f, "quota").entrySet()) {
          quotas.put(e.getKey(), quota(e.getKey(), e.getValue()));
        }
        fqs.add(new FlavorQuotaSpec(flavor, quotas));
      }
      out.add(new ResourceGroupSpec(covered, fqs));
    }
    return out;
  }

  private static QuotaSpec quota(String resource, JsonNode q) {
    if (!q.isObject()) {
      return QuotaSpec.nominal(Nodes.quantity(resource, q));
    }
    long nominal = Nodes.has(q, "nominal") ? Nodes.quantity(resource, q.get("nominal")) : 0;
    long bl = Nodes.has(q, "borrowingLimit") ? Nodes.quantity(resource, q.get("borrowingLimit")) : QuotaSpec.UNLIMITED;
    long ll = Nodes.has(q, "lendingLimit") ? Nodes.quantity(resource, q.get("lendingLimit")) : QuotaSpec.UNLIMITED;
    return new QuotaSpec(nominal, bl, ll);
  }

  private static PreemptionSpec preemption(JsonNode p, String cq) {
    if (p == null || p.isNull()) {
      return PreemptionSpec.NEVER;
    }
    PreemptionPolicy within = Nodes.enumValue(PreemptionPolicy.class, p, "withinClusterQueue", PreemptionPolicy.NEVER);
    PreemptionPolicy reclaim = Nodes.enumValue(PreemptionPolicy.class, p, "reclaimWithinCohort",
        PreemptionPolicy.NEVER);
    PreemptionPolicy borrow = PreemptionPolicy.NEVER;
    Integer threshold = null;
    JsonNode b = p.get("borrowWithinCohort");
    if (b != null && !b.isNull()) {
      if (b.isObject()) {
        borrow = Nodes.enumValue(PreemptionPolicy.class, b, "policy", PreemptionPolicy.NEVER);
        threshold = Nodes.has(b, "maxPriorityThreshold") ? Nodes.integer(b, "maxPriorityThreshold", 0) : null;
      } else {
        borrow = Nodes.enumValue(PreemptionPolicy.class, p, "borrowWithinCohort", PreemptionPolicy.NEVER);
      }
    }
    return new PreemptionSpec(within, reclaim, borrow, threshold);
  }

  private static FlavorFungibility fungibility(JsonNode f, String cq) {
    if (f == null || f.isNull()) {
      return FlavorFungibility.DEFAULT;
    }
    return new FlavorFungibility(policy(f, "whenCanBorrow", FungibilityPolicy.MAY_STOP_SEARCH),
        policy(f, "whenCanPreempt", FungibilityPolicy.TRY_NEXT_FLAVOR),
        Nodes.enumValue(FungibilityPreference.class, f, "preference", null));
  }

  /** v1beta1's Borrow and Preempt spell MayStopSearch. */
  private static FungibilityPolicy policy(JsonNode f, String field, FungibilityPolicy dflt) {
    String v = Nodes.string(f, field, null);
    if ("Borrow".equals(v) || "Preempt".equals(v)) {
      return FungibilityPolicy.MAY_STOP_SEARCH;
    }
    return Nodes.enumValue(FungibilityPolicy.class, f, field, dflt);
  }
}
