package batchsim.scenarios.conformance;

import batchsim.core.kueue.CheckState;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.tas.TasNode;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.FairSharingStrategy;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.FungibilityPolicy;
import batchsim.core.model.FungibilityPreference;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.KueueEnum;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.RequeuingTimestamp;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.Taint;
import batchsim.core.model.Toleration;
import batchsim.core.model.TopologyRequest;
import batchsim.core.model.TopologySpec;
import batchsim.core.model.WorkloadSpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns a case document into engine inputs, with the defaults of the case file's header (those of
 * Kueue's test wrappers): BestEffortFIFO, fungibility MayStopSearch/TryNextFlavor, preemption Never,
 * fair weight 1, priority 0, no UID, creation time "unset" unless given.
 */
final class CaseSetup {
  /** The test's "now" in virtual ms; relative case times are offsets from it, so negatives are fine. */
  static final long NOW = 1_000_000_000L;

  private static final Set<String> CQ_FIELDS = Set.of("name", "cohort", "queueing", "queueingStrategy",
      "preemption", "fungibility", "flavorFungibility", "resourceGroups", "fairWeight", "fairSharing",
      "admissionChecks");
  private static final Set<String> COHORT_FIELDS = Set.of("name", "parent", "resourceGroups", "fairWeight",
      "fairSharing");
  private static final Set<String> WORKLOAD_FIELDS = Set.of("id", "cq", "priority", "created", "reservedAt",
      "uid", "podSets", "admissionChecks");
  private static final Set<String> POD_SET_FIELDS = Set.of("name", "count", "minCount", "perPod", "flavors",
      "nodeSelector", "tolerations", "topology");
  /** The only admission check controller the engine models (any check on a ClusterQueue behaves as one). */
  static final String PROVISIONING_REQUEST = "kueue.x-k8s.io/provisioning-request";

  /** Gates the engine always behaves as if on (their Kueue default). */
  private static final Set<String> ALWAYS_ON_GATES = Set.of("FlavorFungibility", "FairSharingPreemptWithinNominal",
      "FairSharingPrioritizeNonBorrowing", "FlavorFungibilityPreserveScanProgress",
      "RecomputeAssignmentUponPreemptionTargetsOverlap", "UnadmittedWorkloadsObservability");
  /** Gates the engine always behaves as if off (their Kueue default). */
  private static final Set<String> ALWAYS_OFF_GATES = Set.of("PrioritizePreemptorWorkloads", "ConcurrentAdmission",
      "PriorityBoost");

  final JsonNode spec;
  final KueueConfig config;
  final ResourceSpace resources;
  final List<ResourceFlavorSpec> flavors;
  final List<CohortSpec> cohorts = new ArrayList<>();
  final List<ClusterQueueSpec> queues = new ArrayList<>();
  final Map<String, ClusterQueueSpec> queuesByName = new LinkedHashMap<>();
  /** [TAS] The Topology objects by name; empty when the case has none. */
  final Map<String, TopologySpec> topologies = new LinkedHashMap<>();
  /** [TAS] The cluster's nodes (all Ready). */
  final List<TasNode> nodes = new ArrayList<>();
  /** The names of the AdmissionCheck objects (all ProvisioningRequest checks, active). */
  final Set<String> admissionChecks = new LinkedHashSet<>();
  private long seq;

  CaseSetup(JsonNode spec) {
    this.spec = spec;
    this.config = config(spec);
    this.resources = resourceSpace(spec);
    this.flavors = flavors(spec);
    readAdmissionChecks();
    readTopologies();
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

  KueueEngine newEngine() {
    try {
      KueueEngine engine = new KueueEngine(config, resources, flavors, cohorts, queues, () -> NOW);
      if (usesTas()) {
        engine.configureTopologies(new ArrayList<>(topologies.values()), nodes);
      }
      return engine;
    } catch (IllegalArgumentException e) {
      throw CaseException.invalid(e.getMessage());
    }
  }

  /** [TAS] Whether the case declares topologies or a flavor refers to one. */
  boolean usesTas() {
    return !topologies.isEmpty() || flavors.stream().anyMatch(f -> f.topologyName() != null);
  }

  // ---------------------------------------------------------------- TAS and admission checks

  /** Top-level {@code admissionChecks}: {name, controller, active}. */
  private void readAdmissionChecks() {
    for (JsonNode c : Nodes.list(spec, "admissionChecks")) {
      String name = Nodes.required(c, "name", "admission check");
      String where = "admission check " + name;
      Nodes.onlyKnown(c, Set.of("name", "controller", "active"), where);
      String controller = Nodes.required(c, "controller", where);
      if (!PROVISIONING_REQUEST.equals(controller)) {
        throw CaseException.unsupported(where + ": controller " + controller
            + " is not modelled (the engine models only " + PROVISIONING_REQUEST + ")");
      }
      if (!Nodes.bool(c, "active", true)) {
        throw CaseException.unsupported(where + ": an inactive admission check (its ClusterQueues inactive) "
            + "is not modelled");
      }
      if (!admissionChecks.add(name)) {
        throw CaseException.invalid("duplicate admission check " + name);
      }
    }
  }

  /** [TAS] {@code topologies: [{name, levels}]} and {@code nodes: [{name, labels, taints, allocatable}]}. */
  private void readTopologies() {
    for (JsonNode t : Nodes.list(spec, "topologies")) {
      String name = Nodes.required(t, "name", "topology");
      Nodes.onlyKnown(t, Set.of("name", "levels"), "topology " + name);
      List<String> levels = new ArrayList<>();
      for (JsonNode l : Nodes.list(t, "levels")) {
        levels.add(Nodes.text(l, "topology " + name + " level"));
      }
      if (levels.isEmpty()) {
        throw CaseException.invalid("topology " + name + " has no levels");
      }
      if (topologies.put(name, new TopologySpec(name, levels)) != null) {
        throw CaseException.invalid("duplicate topology " + name);
      }
    }
    Set<String> names = new LinkedHashSet<>();
    for (JsonNode n : Nodes.list(spec, "nodes")) {
      String name = Nodes.required(n, "name", "node");
      String where = "node " + name;
      Nodes.onlyKnown(n, Set.of("name", "labels", "taints", "allocatable"), where);
      if (!names.add(name)) {
        throw CaseException.invalid("duplicate node " + name);
      }
      TreeMap<String, String> labels = new TreeMap<>();
      for (Map.Entry<String, JsonNode> e : Nodes.map(n, "labels").entrySet()) {
        labels.put(e.getKey(), Nodes.text(e.getValue(), where + " label " + e.getKey()));
      }
      long[] alloc = new long[resources.size()];
      for (Map.Entry<String, JsonNode> e : Nodes.map(n, "allocatable").entrySet()) {
        alloc[resources.require(e.getKey())] = Nodes.quantity(e.getKey(), e.getValue());
      }
      nodes.add(new TasNode(name, labels, taints(n), Resources.wrap(alloc)));
    }
  }

  /**
   * A workload's {@code admissionChecks} (check -> state). The engine sets every check of the ClusterQueue
   * to Pending when quota is reserved, so only Pending states of the ClusterQueue's own checks are
   * reproducible; a pending workload whose check already has a verdict is not modelled.
   */
  private void checkStates(JsonNode w, String id, String cq, boolean admitted) {
    Map<String, JsonNode> states = Nodes.map(w, "admissionChecks");
    if (states.isEmpty()) {
      return;
    }
    if (admitted) {
      throw CaseException.unsupported("admitted workload " + id + ": admission check states of a workload "
          + "already holding quota are not set up");
    }
    List<String> cqChecks = queuesByName.get(cq).admissionChecks();
    for (Map.Entry<String, JsonNode> e : states.entrySet()) {
      if (!admissionChecks.contains(e.getKey())) {
        throw CaseException.invalid("workload " + id + ": unknown admission check " + e.getKey());
      }
      if (!cqChecks.contains(e.getKey())) {
        throw CaseException.unsupported("workload " + id + ": admission check " + e.getKey()
            + " is not one of ClusterQueue " + cq + "'s checks");
      }
      String state = Nodes.text(e.getValue(), "workload " + id + " admission check " + e.getKey());
      CheckState parsed = switch (state) {
        case "Pending" -> CheckState.PENDING;
        case "Ready" -> CheckState.READY;
        case "Retry" -> CheckState.RETRY;
        case "Rejected" -> CheckState.REJECTED;
        default -> throw CaseException.invalid("workload " + id + ": admission check " + e.getKey()
            + ": unknown state " + state + " (Pending, Ready, Retry, Rejected)");
      };
      if (parsed != CheckState.PENDING) {
        throw CaseException.unsupported("workload " + id + ": admission check " + e.getKey() + " is " + state
            + " before quota reservation; the engine starts every check Pending when it reserves quota");
      }
    }
  }

  // ---------------------------------------------------------------- workloads

  /** Puts every {@code admitted} workload in the cache holding quota with its given flavors. */
  Map<String, Workload> admit(KueueEngine engine) {
    Map<String, Workload> out = new LinkedHashMap<>();
    for (JsonNode w : Nodes.list(spec, "admitted")) {
      String id = Nodes.required(w, "id", "admitted workload");
      String cq = requireQueue(Nodes.required(w, "cq", "admitted workload " + id));
      WorkloadSpec ws = workloadSpec(w, id, cq, true);
      checkStates(w, id, cq, true);
      int[][] fl = admittedFlavors(engine, w, ws, cq);
      tasAdmitted(ws, fl);
      long reservedAt = Nodes.relativeTime(w, "reservedAt", NOW, NOW);
      Workload wl = engine.assumeAdmitted(ws, cq, priority(w), seq++, uid(w), fl, reservedAt);
      if (out.put(id, wl) != null) {
        throw CaseException.invalid("duplicate workload " + id);
      }
    }
    return out;
  }

  /** Queues every {@code pending} workload in its ClusterQueue; the heap orders them. */
  Map<String, Workload> submit(KueueEngine engine, Map<String, Workload> existing) {
    Map<String, Workload> out = new LinkedHashMap<>();
    for (JsonNode w : Nodes.list(spec, "pending")) {
      String id = Nodes.required(w, "id", "pending workload");
      String cq = requireQueue(Nodes.required(w, "cq", "pending workload " + id));
      WorkloadSpec ws = workloadSpec(w, id, cq, true);
      checkStates(w, id, cq, false);
      Workload wl = engine.submit(ws, cq, priority(w), seq++, uid(w));
      if (existing.containsKey(id) || out.put(id, wl) != null) {
        throw CaseException.invalid("duplicate workload " + id);
      }
    }
    return out;
  }

  String requireQueue(String name) {
    if (!queuesByName.containsKey(name)) {
      throw CaseException.invalid("unknown ClusterQueue " + name);
    }
    return name;
  }

  static int priority(JsonNode w) {
    return Nodes.integer(w, "priority", 0);
  }

  static String uid(JsonNode w) {
    return Nodes.string(w, "uid", null);
  }

  /** A workload that is neither admitted nor pending here (an incoming one): no admission check states. */
  WorkloadSpec workloadSpec(JsonNode w, String id, String cq) {
    return workloadSpec(w, id, cq, false);
  }

  private WorkloadSpec workloadSpec(JsonNode w, String id, String cq, boolean withChecks) {
    Nodes.onlyKnown(w, WORKLOAD_FIELDS, "workload " + id);
    if (!withChecks && Nodes.has(w, "admissionChecks")) {
      throw CaseException.unsupported("workload " + id + " field 'admissionChecks' is not supported here");
    }
    List<PodSetSpec> podSets = new ArrayList<>();
    for (JsonNode ps : Nodes.list(w, "podSets")) {
      podSets.add(podSet(ps, id));
    }
    if (podSets.isEmpty()) {
      throw CaseException.invalid("workload " + id + " has no podSets");
    }
    long created = Nodes.relativeTime(w, "created", NOW, Workload.UNSET_TIME);
    return new WorkloadSpec(id, null, cq, created, priority(w), null, podSets, 0);
  }

  private PodSetSpec podSet(JsonNode ps, String id) {
    String where = "workload " + id + " podSet";
    Nodes.onlyKnown(ps, POD_SET_FIELDS, where);
    String name = Nodes.required(ps, "name", where);
    int count = Nodes.integer(ps, "count", 1);
    int min = Nodes.integer(ps, "minCount", PodSetSpec.NO_MIN_COUNT);
    long[] perPod = new long[resources.size()];
    for (Map.Entry<String, JsonNode> e : Nodes.map(ps, "perPod").entrySet()) {
      perPod[resources.require(e.getKey())] = Nodes.quantity(e.getKey(), e.getValue());
    }
    TreeMap<String, String> selector = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : Nodes.map(ps, "nodeSelector").entrySet()) {
      selector.put(e.getKey(), Nodes.text(e.getValue(), "nodeSelector"));
    }
    TopologyRequest topology = topologyRequest(ps.get("topology"), where + " " + name);
    if (topology != null && !usesTas()) {
      throw CaseException.unsupported(where + " " + name + ": a topology request in a case without TAS flavors "
          + "is not modelled (the engine ignores it when no flavor has a topologyName)");
    }
    return new PodSetSpec(name, count, min, Resources.wrap(perPod), selector, tolerations(ps), topology);
  }

  /** [TAS] {@code topology: {required: <level>}} or {@code {preferred: <level>}}; absent is none. */
  private static TopologyRequest topologyRequest(JsonNode t, String where) {
    if (t == null || t.isNull()) {
      return null;
    }
    Nodes.onlyKnown(t, Set.of("required", "preferred"), where + " topology");
    if (t.size() != 1) {
      throw CaseException.invalid(where + " topology: exactly one of required, preferred");
    }
    return Nodes.has(t, "required") ? TopologyRequest.required(Nodes.text(t.get("required"), "required"))
        : TopologyRequest.preferred(Nodes.text(t.get("preferred"), "preferred"));
  }

  /**
   * [TAS] Workloads put in the cache holding quota get no topology assignment here, so they may not use a
   * TAS flavor (the engine would not count them on any node).
   */
  private void tasAdmitted(WorkloadSpec ws, int[][] fl) {
    for (int i = 0; i < fl.length; i++) {
      if (ws.podSets().get(i).topology() != null) {
        throw CaseException.unsupported("admitted workload " + ws.id() + ": a podSet with a topology request "
            + "needs a topologyAssignment, which the case setup does not build");
      }
      for (int f : fl[i]) {
        if (f >= 0 && flavors.get(f).topologyName() != null) {
          throw CaseException.unsupported("admitted workload " + ws.id() + " uses TAS flavor "
              + flavors.get(f).name() + ": its topologyAssignment is not set up");
        }
      }
    }
  }

  /**
   * The admission flavors [podSet][resource] of an admitted workload. When the ClusterQueue covers
   * {@code pods} and the case leaves it out, pods take the flavor chosen for their resource group.
   */
  private int[][] admittedFlavors(KueueEngine engine, JsonNode w, WorkloadSpec ws, String cq) {
    List<JsonNode> podSets = Nodes.list(w, "podSets");
    int[][] out = new int[podSets.size()][resources.size()];
    for (int i = 0; i < podSets.size(); i++) {
      Arrays.fill(out[i], -1);
      for (Map.Entry<String, JsonNode> e : Nodes.map(podSets.get(i), "flavors").entrySet()) {
        int r = resources.require(e.getKey());
        String f = Nodes.text(e.getValue(), "flavors." + e.getKey());
        out[i][r] = engine.index().flavorIndex(f);
        if (out[i][r] < 0) {
          throw CaseException.invalid("workload " + ws.id() + ": unknown flavor " + f);
        }
      }
      int pods = resources.indexOf(ResourceSpace.PODS);
      if (pods >= 0 && out[i][pods] < 0) {
        for (ResourceGroupSpec g : queuesByName.get(cq).resourceGroups()) {
          if (g.coveredResources().contains(ResourceSpace.PODS)) {
            for (String other : g.coveredResources()) {
              int r = resources.indexOf(other);
              if (r >= 0 && out[i][r] >= 0) {
                out[i][pods] = out[i][r];
              }
            }
          }
        }
      }
      for (int r = 0; r < resources.size(); r++) {
        if (ws.podSets().get(i).perPod().get(r) > 0 && out[i][r] < 0) {
          throw CaseException.invalid("admitted workload " + ws.id() + " podSet " + ws.podSets().get(i).name()
              + " has no flavor for " + resources.name(r));
        }
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- quota tree

  private ClusterQueueSpec clusterQueue(JsonNode q) {
    String name = Nodes.required(q, "name", "ClusterQueue");
    Nodes.onlyKnown(q, CQ_FIELDS, "ClusterQueue " + name);
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
    Nodes.onlyKnown(c, COHORT_FIELDS, "cohort " + name);
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

  private List<ResourceGroupSpec> groups(JsonNode owner, String where) {
    List<ResourceGroupSpec> out = new ArrayList<>();
    for (JsonNode g : Nodes.list(owner, "resourceGroups")) {
      Nodes.onlyKnown(g, Set.of("covered", "flavors"), where + " resourceGroup");
      List<String> covered = new ArrayList<>();
      for (JsonNode r : Nodes.list(g, "covered")) {
        covered.add(Nodes.text(r, "covered"));
      }
      List<FlavorQuotaSpec> fqs = new ArrayList<>();
      for (JsonNode f : Nodes.list(g, "flavors")) {
        Nodes.onlyKnown(f, Set.of("flavor", "quota"), where + " flavor quota");
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
    Nodes.onlyKnown(q, Set.of("nominal", "borrowingLimit", "lendingLimit"), "quota of " + resource);
    long nominal = Nodes.has(q, "nominal") ? Nodes.quantity(resource, q.get("nominal")) : 0;
    long bl = Nodes.has(q, "borrowingLimit") ? Nodes.quantity(resource, q.get("borrowingLimit")) : QuotaSpec.UNLIMITED;
    long ll = Nodes.has(q, "lendingLimit") ? Nodes.quantity(resource, q.get("lendingLimit")) : QuotaSpec.UNLIMITED;
    return new QuotaSpec(nominal, bl, ll);
  }

  private static PreemptionSpec preemption(JsonNode p, String cq) {
    if (p == null || p.isNull()) {
      return PreemptionSpec.NEVER;
    }
    Nodes.onlyKnown(p, Set.of("withinClusterQueue", "reclaimWithinCohort", "borrowWithinCohort"),
        "ClusterQueue " + cq + " preemption");
    PreemptionPolicy within = Nodes.enumValue(PreemptionPolicy.class, p, "withinClusterQueue", PreemptionPolicy.NEVER);
    PreemptionPolicy reclaim = Nodes.enumValue(PreemptionPolicy.class, p, "reclaimWithinCohort",
        PreemptionPolicy.NEVER);
    PreemptionPolicy borrow = PreemptionPolicy.NEVER;
    Integer threshold = null;
    JsonNode b = p.get("borrowWithinCohort");
    if (b != null && !b.isNull()) {
      if (b.isObject()) {
        Nodes.onlyKnown(b, Set.of("policy", "maxPriorityThreshold"), "borrowWithinCohort");
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
    Nodes.onlyKnown(f, Set.of("whenCanBorrow", "whenCanPreempt", "preference"), "ClusterQueue " + cq + " fungibility");
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

  private static List<ResourceFlavorSpec> flavors(JsonNode spec) {
    List<ResourceFlavorSpec> out = new ArrayList<>();
    for (JsonNode f : Nodes.list(spec, "flavors")) {
      if (!f.isObject()) {
        out.add(ResourceFlavorSpec.plain(Nodes.text(f, "flavors")));
        continue;
      }
      String name = Nodes.required(f, "name", "flavor");
      Nodes.onlyKnown(f, Set.of("name", "nodeLabels", "nodeTaints", "tolerations", "topologyName"), "flavor " + name);
      TreeMap<String, String> labels = new TreeMap<>();
      for (Map.Entry<String, JsonNode> e : Nodes.map(f, "nodeLabels").entrySet()) {
        labels.put(e.getKey(), Nodes.text(e.getValue(), "nodeLabels"));
      }
      List<Taint> taints = new ArrayList<>();
      for (JsonNode t : Nodes.list(f, "nodeTaints")) {
        taints.add(taint(t));
      }
      out.add(new ResourceFlavorSpec(name, labels, taints, tolerations(f), Nodes.string(f, "topologyName", null)));
    }
    return out;
  }

  private static Taint taint(JsonNode t) {
    return new Taint(Nodes.required(t, "key", "taint"), Nodes.string(t, "value", null),
        Nodes.string(t, "effect", "NoSchedule"));
  }

  private static List<Taint> taints(JsonNode owner) {
    List<Taint> out = new ArrayList<>();
    for (JsonNode t : Nodes.list(owner, "taints")) {
      out.add(taint(t));
    }
    return out;
  }

  private static List<Toleration> tolerations(JsonNode owner) {
    List<Toleration> out = new ArrayList<>();
    for (JsonNode t : Nodes.list(owner, "tolerations")) {
      out.add(new Toleration(Nodes.string(t, "key", null), Nodes.string(t, "operator", "Equal"),
          Nodes.string(t, "value", null), Nodes.string(t, "effect", null)));
    }
    return out;
  }

  // ---------------------------------------------------------------- config and resources

  static KueueConfig config(JsonNode spec) {
    KueueConfig d = KueueConfig.defaults();
    JsonNode cfg = spec.get("config");
    Nodes.onlyKnown(cfg, Set.of("fairSharing", "waitForPodsReady"), "config");
    boolean fairSharing = Nodes.has(cfg, "fairSharing");
    List<FairSharingStrategy> strategies = new ArrayList<>();
    if (fairSharing) {
      JsonNode fs = cfg.get("fairSharing");
      Nodes.onlyKnown(fs, Set.of("preemptionStrategies"), "config.fairSharing");
      for (JsonNode s : Nodes.list(fs, "preemptionStrategies")) {
        try {
          strategies.add(KueueEnum.parse(FairSharingStrategy.class, Nodes.text(s, "strategy")));
        } catch (IllegalArgumentException e) {
          throw CaseException.invalid("preemptionStrategies: " + e.getMessage());
        }
      }
    }
    if (strategies.isEmpty()) {
      strategies = d.fairSharingStrategies();
    }
    RequeuingTimestamp ts = d.podsReadyRequeuingTimestamp();
    JsonNode wfpr = cfg == null ? null : cfg.get("waitForPodsReady");
    if (wfpr != null && !wfpr.isNull()) {
      Nodes.onlyKnown(wfpr, Set.of("requeuingStrategy"), "config.waitForPodsReady");
      JsonNode rs = wfpr.get("requeuingStrategy");
      Nodes.onlyKnown(rs, Set.of("timestamp"), "config.waitForPodsReady.requeuingStrategy");
      ts = Nodes.enumValue(RequeuingTimestamp.class, rs, "timestamp", ts);
    }
    boolean prioritySorting = d.prioritySortingWithinCohort();
    boolean partial = d.partialAdmission();
    for (Map.Entry<String, JsonNode> g : Nodes.map(spec, "featureGates").entrySet()) {
      String gate = g.getKey();
      boolean on = Nodes.bool(spec.get("featureGates"), gate, false);
      if ("PrioritySortingWithinCohort".equals(gate)) {
        prioritySorting = on;
      } else if ("PartialAdmission".equals(gate)) {
        partial = on;
      } else if (!(ALWAYS_ON_GATES.contains(gate) && on) && !(ALWAYS_OFF_GATES.contains(gate) && !on)) {
        throw CaseException.unsupported("feature gate " + gate + "=" + on + " is not supported yet");
      }
    }
    return new KueueConfig(fairSharing, List.copyOf(strategies), d.cycleLatencyMs(), d.inadmissibleRequeueDelayMs(),
        d.terminationGraceMs(), prioritySorting, partial, ts);
  }

  /** Every resource the case names: cpu, memory and pods first, then the others in order of appearance. */
  static ResourceSpace resourceSpace(JsonNode spec) {
    Set<String> names = new LinkedHashSet<>(List.of(ResourceSpace.CPU, ResourceSpace.MEMORY, ResourceSpace.PODS));
    List<JsonNode> owners = new ArrayList<>();
    owners.addAll(Nodes.list(spec, "clusterQueues"));
    owners.addAll(Nodes.list(spec, "cohorts"));
    for (JsonNode o : owners) {
      for (JsonNode g : Nodes.list(o, "resourceGroups")) {
        for (JsonNode r : Nodes.list(g, "covered")) {
          names.add(Nodes.text(r, "covered"));
        }
        for (JsonNode f : Nodes.list(g, "flavors")) {
          names.addAll(Nodes.map(f, "quota").keySet());
        }
      }
    }
    List<JsonNode> workloads = new ArrayList<>();
    workloads.addAll(Nodes.list(spec, "admitted"));
    workloads.addAll(Nodes.list(spec, "pending"));
    if (Nodes.has(spec, "incoming")) {
      workloads.add(spec.get("incoming"));
    }
    if (Nodes.has(spec, "workload")) {
      workloads.add(spec.get("workload"));
    }
    for (JsonNode w : workloads) {
      for (JsonNode ps : Nodes.list(w, "podSets")) {
        names.addAll(Nodes.map(ps, "perPod").keySet());
        names.addAll(Nodes.map(ps, "flavors").keySet());
      }
    }
    for (JsonNode byFlavor : Nodes.map(spec, "usage").values()) {
      for (JsonNode byResource : Nodes.entries(byFlavor, "usage").values()) {
        names.addAll(Nodes.entries(byResource, "usage").keySet());
      }
    }
    for (JsonNode n : Nodes.list(spec, "nodes")) {
      names.addAll(Nodes.map(n, "allocatable").keySet());
    }
    for (JsonNode byResource : Nodes.map(spec, "assignment").values()) {
      names.addAll(Nodes.entries(byResource, "assignment").keySet());
    }
    return ResourceSpace.of(new ArrayList<>(names));
  }
}
