package batchsim.scenarios;

import batchsim.core.model.AdmissionFairSharing;
import batchsim.core.model.ControllerPaceConfig;
import batchsim.core.model.FairSharingStrategy;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.PodSchedulingConfig;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ScoringStrategy;
import batchsim.core.model.SimulationSpec;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;

/**
 * Binds the top level of a scenario, the cluster and the Kueue configuration, and delegates queues and
 * workloads. Field names follow Kueue's v1beta2 API so that Kueue users recognise them.
 */
final class ScenarioBinder {
  private static final long DEFAULT_SEED = 1;
  private static final long DEFAULT_PODS_PER_NODE = 110; // kubelet's default maxPods

  private final Problems problems;
  private final KubeBinder kube;
  private final TopologyBinder topology;

  private ScenarioBinder(Problems problems) {
    this.problems = problems;
    this.kube = new KubeBinder(problems);
    this.topology = new TopologyBinder(kube);
  }

  /** Binds a document root; problems go to {@code problems}. */
  static Spec.Scenario bind(Node root, Problems problems) {
    return new ScenarioBinder(problems).scenario(root);
  }

  private Spec.Scenario scenario(Node root) {
    if (!(root instanceof MapNode)) {
      problems.wrongType(root, "a map with name, cluster, clusterQueues, ... at the top level");
    }
    Fields f = Fields.of(root instanceof MapNode ? root : null, problems, "name", "seed", "horizon", "sampleInterval", "cluster", "kueue",
        "resourceFlavors", "cohorts", "clusterQueues", "localQueues", "priorityClasses", "workloads", "events", "failures", "serving",
        "topologies", // Topology Aware Scheduling: TopologyBinder
        "scheduler", "volcano", // the engine and Volcano's configuration: VolcanoBinder
        "snapshotTime", // wall-clock time of t = 0 for an imported live cluster: ScenarioLoader
        // read from the tree by overrides.Composer / overrides.Matrix / expect.Expectations:
        "include", "matrix", "replicas", "expect", "baseline", "admissionChecks", "autoscaling",
        "multiKueue", // MultiKueue's workers: MultiKueueBinder
        "story"); // a transcribed Kueue integration test: Story
    ScalarNode name = f.requiredName("name");
    long seed = f.integer("seed", DEFAULT_SEED, Long.MIN_VALUE);
    Long horizon = Values.positiveDuration(f.get("horizon"), problems);
    long sampleInterval = f.duration("sampleInterval", 0);

    Set<String> declaredTopologies = new LinkedHashSet<>();
    topology.topologies(f.list("topologies")).forEach(t -> declaredTopologies.add(t.name()));
    TimelineObjects created = TimelineObjects.bindTopologies(f.get("events"), topology);
    created.topologies.forEach(t -> {
      if (!declaredTopologies.contains(t.name())) {
        created.createdOnly.add("Topology " + t.name());
      }
    });
    List<batchsim.core.model.TopologySpec> topologies = topology.topologies(List.of()); // with those created later
    Fields cluster = Fields.of(f.required("cluster"), problems, "nodePools", "scheduling", "nodesFrom");
    List<Spec.NodePool> pools = new ArrayList<>();
    for (Node n : cluster.has("nodesFrom") ? cluster.list("nodePools") : cluster.requiredList("nodePools", false)) {
      pools.addAll(nodePool(n)); // several when a topology generator expands it
    }
    pools.addAll(new NodeSourceBinder(kube).pools(cluster.get("nodesFrom"))); // node lists read from files
    PodSchedulingConfig scheduling = scheduling(cluster.map("scheduling", "scoring", "podStartup"));
    KueueConfig kueue = kueue(f.map("kueue", "fairSharing", "cycleLatency", "inadmissibleRequeueDelay",
        "terminationGracePeriod", "featureGates", "waitForPodsReady", "admissionFairSharing", "controllerPace"));
    // waitForPodsReady: TimelineBinder
    List<Spec.Flavor> flavors = new ArrayList<>();
    for (Node n : f.list("resourceFlavors")) {
      flavors.add(flavor(n));
    }

    QueueBinder queues = new QueueBinder(kube);
    List<Spec.Cohort> cohorts = queues.cohorts(f.list("cohorts"));
    List<Spec.ClusterQueue> clusterQueues = queues.clusterQueues(f.list("clusterQueues"));
    List<Spec.LocalQueue> localQueues = queues.localQueues(f.list("localQueues"));
    List<Spec.PriorityClass> priorityClasses = queues.priorityClasses(f.list("priorityClasses"));
    created.bind(f.get("events"), queues, this::flavor);
    // Objects the timeline creates later are part of the run from the start (absent until created).
    addNew(flavors, created.flavors, x -> x.name() == null ? null : x.name().text(), "ResourceFlavor ", created);
    addNew(cohorts, created.cohorts, x -> x.name() == null ? null : x.name().text(), "Cohort ", created);
    addNew(clusterQueues, created.clusterQueues, x -> x.name() == null ? null : x.name().text(), "ClusterQueue ",
        created);
    addNew(localQueues, created.localQueues, Spec.LocalQueue::fullName, "LocalQueue ", created);

    WorkloadBinder workloads = new WorkloadBinder(kube);
    workloads.topology = topology;
    Fields w = f.map("workloads", "classes", "list", "traces");
    List<Spec.WorkloadClass> classes = workloads.classes(w.list("classes"));
    List<Spec.ListedWorkload> listed = workloads.listed(w.list("list"));
    List<TraceBinder.Trace> traces = new TraceBinder(kube).traces(w.list("traces"));
    topology.checkLevels();

    // An object whose name (or queue) is missing or unreadable was reported where it is written; the checks
    // that follow look objects up by name, so they see only the named ones.
    return new Spec.Scenario(name, seed, horizon == null ? SimulationSpec.NO_HORIZON : horizon, sampleInterval,
        named(pools, Spec.NodePool::name), scheduling, kueue, named(flavors, Spec.Flavor::name),
        named(cohorts, Spec.Cohort::name), named(clusterQueues, Spec.ClusterQueue::name),
        named(localQueues, Spec.LocalQueue::name, Spec.LocalQueue::clusterQueue),
        named(priorityClasses, Spec.PriorityClass::name),
        named(classes, Spec.WorkloadClass::name, Spec.WorkloadClass::queue),
        named(listed, Spec.ListedWorkload::name, Spec.ListedWorkload::queue),
        traces, kube.resourceNames(), topologies, created);
  }

  /** The items of {@code list} whose every {@code names} field is there. */
  @SafeVarargs
  private static <T> List<T> named(List<T> list, java.util.function.Function<T, ScalarNode>... names) {
    return list.stream().filter(t -> java.util.Arrays.stream(names).allMatch(n -> n.apply(t) != null)).toList();
  }

  /**
   * Appends the items of {@code more} whose name {@code to} has not got yet (the first declaration counts),
   * noting them as created by the timeline only ({@code kind} + name).
   */
  private static <T> void addNew(List<T> to, List<T> more, java.util.function.Function<T, String> name, String kind,
      TimelineObjects created) {
    Set<String> have = new LinkedHashSet<>();
    to.forEach(t -> have.add(name.apply(t)));
    for (T t : more) {
      if (name.apply(t) != null && have.add(name.apply(t))) {
        to.add(t);
        created.createdOnly.add(kind + name.apply(t));
      }
    }
  }

  private List<Spec.NodePool> nodePool(Node n) {
    Fields f = Fields.of(n, problems, "name", "count", "labels", "taints", "allocatable", "topology");
    ScalarNode name = f.requiredName("name");
    Integer count = f.has("topology") && !f.has("count") ? null : Values.int32(f.required("count"), problems, 0);
    Node allocatableNode = f.required("allocatable");
    List<Spec.Amount> allocatable = kube.amounts(allocatableNode);
    if (allocatableNode instanceof MapNode m && m.get("pods") == null) {
      allocatable.add(new Spec.Amount(new ScalarNode(m.location(), m.path() + ".pods", "pods",
          ScalarNode.Type.STRING), DEFAULT_PODS_PER_NODE));
    }
    if (f.has("topology") && name != null) {
      return topology.generate(f, name, count, f.stringMap("labels"), kube.taints(f.list("taints")),
          List.copyOf(allocatable));
    }
    return List.of(new Spec.NodePool(name, count == null ? 0 : count, f.stringMap("labels"),
        kube.taints(f.list("taints")), List.copyOf(allocatable)));
  }

  private PodSchedulingConfig scheduling(Fields f) {
    PodSchedulingConfig d = PodSchedulingConfig.defaults();
    return new PodSchedulingConfig(f.enumeration("scoring", ScoringStrategy.class, d.scoring()),
        f.duration("podStartup", d.podStartupMs()));
  }

  private KueueConfig kueue(Fields f) {
    KueueConfig d = KueueConfig.defaults();
    // Kueue's Configuration has fairSharing.enable; here the block's presence enables it unless enable: false.
    Fields fs = f.map("fairSharing", "enable", "preemptionStrategies");
    boolean fairSharing = fs.present() && fs.bool("enable", true);
    List<FairSharingStrategy> strategies = d.fairSharingStrategies();
    if (fs.has("preemptionStrategies")) {
      Set<FairSharingStrategy> given = new LinkedHashSet<>();
      for (Node s : fs.requiredList("preemptionStrategies", true)) {
        FairSharingStrategy v = Values.enumeration(FairSharingStrategy.class, s, problems);
        if (v != null && !given.add(v)) {
          problems.at(s, "strategy '" + v.kueueName() + "' is listed twice");
        }
      }
      strategies = given.isEmpty() ? strategies : List.copyOf(given);
    }
    Fields gates = f.map("featureGates", "PrioritySortingWithinCohort", "PartialAdmission",
        "PrioritizePreemptorWorkloads", "AdmissionFairSharing", ElasticBinder.GATE);
    gates.bool(ElasticBinder.GATE, true); // read where scaling is asked for (ElasticBinder)
    return new KueueConfig(fairSharing, strategies,
        f.duration("cycleLatency", d.cycleLatencyMs()),
        f.duration("inadmissibleRequeueDelay", d.inadmissibleRequeueDelayMs()),
        f.duration("terminationGracePeriod", d.terminationGraceMs()),
        gates.bool("PrioritySortingWithinCohort", d.prioritySortingWithinCohort()),
        gates.bool("PartialAdmission", d.partialAdmission()))
        .withPrioritizePreemptorWorkloads(gates.bool("PrioritizePreemptorWorkloads",
            d.prioritizePreemptorWorkloads()))
        // Kueue afs.Enabled: the block and the gate (beta, on by default at the pinned commit)
        .withAdmissionFairSharing(admissionFairSharing(f.map("admissionFairSharing", "usageHalfLifeTime",
            "usageSamplingInterval", "resourceWeights"), gates.bool("AdmissionFairSharing", true)))
        .withControllerPace(controllerPace(f));
  }

  /**
   * kueue.controllerPace: the block's presence turns it on (unless enable: false); its physical parameters,
   * each under a ceiling (ControllerPaceConfig) so that no cycle or write can outlast any sensible run.
   * An empty value ({@code controllerPace:} or {@code null}) is a problem, not "off": {@code {}} turns it on.
   */
  private ControllerPaceConfig controllerPace(Fields kueue) {
    ScalarNode key = kueue.keyNode("controllerPace");
    if (key != null && !kueue.has("controllerPace")) {
      problems.at(key, "empty: write 'controllerPace: {}' to turn the controller pace on"
          + " with its defaults, or remove it to leave it off");
      return null;
    }
    Fields f = kueue.map("controllerPace", "enable", "clientQPS", "clientBurst", "writeLatency", "watchLatency",
        "cycleBaseMicros", "perClusterQueueMicros", "perHeadMicros", "perPreemptionCandidateMicros");
    if (!f.present() || !f.bool("enable", true)) {
      return null;
    }
    ControllerPaceConfig d = ControllerPaceConfig.defaults();
    long us = ControllerPaceConfig.MAX_COST_US;
    long ms = ControllerPaceConfig.MAX_LATENCY_MS;
    return new ControllerPaceConfig(f.decimal("clientQPS", d.clientQps(), 0.001),
        f.int32("clientBurst", d.clientBurst(), 1), f.duration("writeLatency", d.writeLatencyMs(), ms, "1h"),
        f.duration("watchLatency", d.watchLatencyMs(), ms, "1h"), f.integer("cycleBaseMicros", d.cycleBaseUs(), 0, us),
        f.integer("perClusterQueueMicros", d.perClusterQueueUs(), 0, us),
        f.integer("perHeadMicros", d.perHeadUs(), 0, us),
        f.integer("perPreemptionCandidateMicros", d.perCandidateUs(), 0, us));
  }

  /** Kueue's admissionFairSharing block with its validation (pkg/config/validation.go); null when off. */
  private AdmissionFairSharing admissionFairSharing(Fields f, boolean gate) {
    if (!f.present()) {
      return null;
    }
    f.required("usageHalfLifeTime");
    long halfLife = f.duration("usageHalfLifeTime", 0);
    long sampling = f.duration("usageSamplingInterval", AdmissionFairSharing.DEFAULT_SAMPLING_MS);
    if (f.has("usageSamplingInterval") && sampling <= 0) {
      problems.at(f.get("usageSamplingInterval"), "usageSamplingInterval must be greater than 0");
    }
    Map<String, Double> weights = new TreeMap<>();
    Node w = f.get("resourceWeights");
    if (w instanceof MapNode m) {
      m.entries().forEach((k, e) -> {
        Double v = Values.decimal(e.value(), problems, 0);
        if (v != null) {
          weights.put(k, v);
        }
      });
    } else if (w != null) {
      problems.wrongType(w, "a map of resource name to weight");
    }
    return gate ? new AdmissionFairSharing(halfLife, sampling, weights) : null;
  }

  private Spec.Flavor flavor(Node n) {
    Fields f = Fields.of(n, problems, "name", "nodeLabels", "nodeTaints", "tolerations", "topologyName");
    ScalarNode name = f.requiredName("name");
    ResourceFlavorSpec spec = new ResourceFlavorSpec(name == null ? null : name.text(), f.stringMap("nodeLabels"),
        kube.taints(f.list("nodeTaints")), kube.tolerations(f.list("tolerations")),
        topology.topologyName(f, f.stringMap("nodeLabels")));
    return new Spec.Flavor(name, spec);
  }
}
