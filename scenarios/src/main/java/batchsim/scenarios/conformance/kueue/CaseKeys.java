package batchsim.scenarios.conformance.kueue;

import static batchsim.scenarios.conformance.Shape.ANY;
import static batchsim.scenarios.conformance.Shape.listOf;
import static batchsim.scenarios.conformance.Shape.mapOf;
import static batchsim.scenarios.conformance.Shape.object;
import static batchsim.scenarios.conformance.Shape.patchOf;

import batchsim.scenarios.conformance.KeyCheck;
import batchsim.scenarios.conformance.Shape;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.List;
import java.util.Map;

/**
 * Every key a Kueue case document may hold (kueue-cases.yaml's FORMAT notes), per case kind, and the check
 * that refuses the others with their location. This is the one list of the format's keys: the runners read
 * the keys named here and nothing else.
 */
final class CaseKeys {
  private static final Shape TAINT = object("key", "value", "effect");
  private static final Shape TOLERATION = object("key", "operator", "value", "effect");
  private static final Shape TEST = object("file", "func", "name");
  private static final Shape QUOTA = mapOf(object("nominal", "borrowingLimit", "lendingLimit"));
  private static final Shape RESOURCE_GROUP = object("covered")
      .with("flavors", listOf(object("flavor").with("quota", QUOTA)));
  private static final Shape FUNGIBILITY = object("whenCanBorrow", "whenCanPreempt", "preference");
  private static final Shape CLUSTER_QUEUE = object("name", "cohort", "queueing", "queueingStrategy", "fairWeight",
      "admissionChecks")
      .with("preemption", object("withinClusterQueue", "reclaimWithinCohort")
          .with("borrowWithinCohort", object("policy", "maxPriorityThreshold")))
      .with("fungibility", FUNGIBILITY).with("flavorFungibility", FUNGIBILITY)
      .with("resourceGroups", listOf(RESOURCE_GROUP)).with("fairSharing", object("weight"));
  private static final Shape COHORT = object("name", "parent", "fairWeight")
      .with("resourceGroups", listOf(RESOURCE_GROUP)).with("fairSharing", object("weight"));
  private static final Shape FLAVOR = object("name", "nodeLabels", "topologyName")
      .with("nodeTaints", listOf(TAINT)).with("tolerations", listOf(TOLERATION));
  private static final Shape POD_SET = object("name", "count", "minCount", "perPod", "flavors", "nodeSelector")
      .with("tolerations", listOf(TOLERATION)).with("topology", object("required", "preferred"));
  private static final Shape WORKLOAD = object("id", "cq", "priority", "created", "reservedAt", "uid",
      "admissionChecks").with("podSets", listOf(POD_SET));
  private static final Shape CONFIG = object()
      .with("fairSharing", object("preemptionStrategies"))
      .with("waitForPodsReady", object().with("requeuingStrategy", object("timestamp")));
  private static final Shape TOPOLOGY_ASSIGNMENT = object("levels").with("domains", listOf(object("values", "count")));

  private static final Map<String, Shape> EXPECT = Map.of(
      "schedule_cycle", object("reserved_after", "evicted", "pending_active", "pending_inadmissible",
          "quota_reserved_false", "skipped_preemptions_metric")
          .with("newly_admitted", mapOf(object("cq").with("podSets", mapOf(object("count", "flavors", "usage",
              "delayedTopologyRequest").with("topologyAssignment", TOPOLOGY_ASSIGNMENT)))))
          .with("events", listOf(object("workload", "reason", "type"))),
      "flavor_assignment", object("representativeMode", "borrowing", "podSets"),
      "preemption_targets", object("preempted"),
      "iterator_order", object("order"),
      "requeue_table", object());

  private static final Shape FIXTURES = object("id", "kind").with("fixtures", mapOf(listOf(CLUSTER_QUEUE)));

  private CaseKeys() {}

  /** The keys of a case of {@code kind} besides id, kind, kueue_test, caveat, expect and variants; null if unknown. */
  private static Shape body(String kind) {
    switch (kind) {
      case "schedule_cycle":
        return quotaCase().with("admitted", listOf(WORKLOAD)).with("pending", listOf(WORKLOAD))
            .with("topologies", listOf(object("name", "levels")))
            .with("nodes", listOf(object("name", "labels", "allocatable", "ready", "unschedulable")
                .with("taints", listOf(TAINT))))
            .with("admissionChecks", listOf(object("name", "controller", "active")));
      case "flavor_assignment":
        return quotaCase().with("usage", ANY).with("target_cq", ANY).with("workload", WORKLOAD);
      case "preemption_targets":
        return quotaCase().with("admitted", listOf(WORKLOAD)).with("target_cq", ANY).with("incoming", WORKLOAD)
            .with("assignment", mapOf(mapOf(object("flavor", "mode"))));
      case "iterator_order":
        return object("featureGates").with("config", CONFIG)
            .with("entries", listOf(object("id", "borrowing", "priority", "created")
                .with("evicted", object("reason", "at"))));
      case "requeue_table":
        return object().with("cases", listOf(object("strategy", "reason", "last_scan_pending_flavors", "goes_to",
            "becomes_sticky_head")));
      default:
        return null;
    }
  }

  /** A case with ClusterQueues, cohorts and flavors. */
  private static Shape quotaCase() {
    return object("featureGates").with("config", CONFIG).with("flavors", listOf(FLAVOR))
        .with("clusterQueues", listOf(CLUSTER_QUEUE)).with("cohorts", listOf(COHORT));
  }

  /**
   * The unknown keys of a document, one located message each. A document of a kind the runner does not know
   * is not checked here: the runner skips it, naming the kind.
   */
  static List<String> unknownKeys(Node doc) {
    if (!(doc instanceof MapNode m)) {
      return List.of();
    }
    String kind = m.get("kind") instanceof ScalarNode s ? s.text() : "";
    if (kind.equals("fixtures") || m.get("id") instanceof ScalarNode id && id.text().equals("FIXTURES")) {
      return KeyCheck.unknownKeys(doc, FIXTURES, true);
    }
    Shape body = body(kind);
    if (body == null) {
      return List.of();
    }
    Shape expect = EXPECT.get(kind);
    Shape variant = object("caveat").with("kueue_test", TEST).with("expect", expect)
        .with("change", patchOf(body(kind)));
    Shape shape = body.with("id", ANY).with("kind", ANY).with("caveat", ANY).with("kueue_test", TEST)
        .with("expect", expect).with("variants", listOf(variant));
    return KeyCheck.unknownKeys(doc, shape, true);
  }
}
