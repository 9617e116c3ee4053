package batchsim.scenarios.imports;

import static batchsim.scenarios.imports.ScenarioDraft.HERE;

import batchsim.core.model.ProvisioningSpec;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's AdmissionCheck and ProvisioningRequestConfig objects as the scenario's {@code admissionChecks}
 * (and {@code autoscaling} for the pools ProvisioningRequests grow). A check of Kueue's provisioning
 * controller gets a {@code provisioningRequest} block from its config: the class, retry strategy and managed
 * resources; what a cluster does not say (the autoscaler's delay, failures, booking expiry, which pool grows
 * and by how much) is a documented assumption written next to it. Checks of other controllers stay Pending
 * until the timeline answers them. Runs once the pools, flavors and ClusterQueues are in the draft.
 */
final class AdmissionCheckImport {
  static final String CHECK = "AdmissionCheck";
  static final String CONFIG = "ProvisioningRequestConfig";
  /** Kueue ProvisioningRequestControllerName. */
  static final String PROVISIONING_CONTROLLER = "kueue.x-k8s.io/provisioning-request";
  /** cluster-autoscaler's ProvisioningRequest classes (autoscaling.x-k8s.io) and batchsim's names for them. */
  private static final Map<String, String> CLASSES = Map.of(
      "best-effort-atomic-scale-up.autoscaling.x-k8s.io", ProvisioningSpec.ATOMIC_SCALE_UP,
      "check-capacity.autoscaling.x-k8s.io", ProvisioningSpec.CHECK_CAPACITY,
      "queued-provisioning.gke.io", ProvisioningSpec.ATOMIC_SCALE_UP);
  /** GKE's Dynamic Workload Scheduler class, modelled as an atomic scale-up. */
  private static final String GKE_QUEUED = "queued-provisioning.gke.io";
  private static final Shape RETRY = Shape.obj("backoffLimitCount", Shape.LEAF, "backoffBaseSeconds", Shape.LEAF,
      "backoffMaxSeconds", Shape.LEAF);
  private static final Shape CONFIG_SPEC = Shape.obj("provisioningClassName", Shape.LEAF, "managedResources",
      Shape.LEAF, "retryStrategy", RETRY);
  private static final Shape CHECK_SPEC = Shape.obj("controllerName", Shape.LEAF, "parameters", Shape.LEAF);

  private AdmissionCheckImport() {}

  static boolean handles(KubeObject o) {
    return o.group().equals(KueueManifestReader.GROUP) && (o.kind().equals(CHECK) || o.kind().equals(CONFIG));
  }

  /** Adds the checks among {@code objects}, and a Pending check for each one a ClusterQueue names but none defines. */
  static void add(ScenarioDraft d, List<KubeObject> objects) {
    Map<String, KubeObject> configs = new LinkedHashMap<>();
    objects.stream().filter(o -> handles(o) && o.kind().equals(CONFIG)).forEach(o -> configs.put(o.name(), o));
    Set<String> defined = new LinkedHashSet<>();
    for (KubeObject o : objects) {
      if (handles(o) && o.kind().equals(CHECK) && defined.add(o.name())) {
        check(d, o, configs);
      }
    }
    for (String name : checksNamed(d).keySet()) {
      if (!defined.contains(name)) {
        MapNode entry = Tree.map(HERE, "").put("name", name, HERE).build();
        d.admissionChecks.add(entry);
        Location at = checksNamed(d).get(name).location();
        d.comments.put(entry, List.of("named by ClusterQueue " + queueOf(d, name) + "; no AdmissionCheck object among "
            + "the inputs: Pending until the timeline answers it (setAdmissionCheck)"));
        d.warnings.add("AdmissionCheck:missing", at, "admission check " + name + " is named by a ClusterQueue but "
            + "not among the inputs (Kueue keeps the queue inactive); imported as a check that stays Pending until "
            + "the timeline answers it");
      }
    }
  }

  private static void check(ScenarioDraft d, KubeObject o, Map<String, KubeObject> configs) {
    Node spec = Tree.get(o.node(), "spec");
    String what = CHECK + " " + o.name();
    CHECK_SPEC.keep(spec, CHECK, what, d.warnings);
    Tree.Map_ entry = Tree.map(o.location(), o.node().path()).put("name", o.name(), o.location());
    List<String> comment = new ArrayList<>();
    comment.add("from " + o.location());
    String controller = Tree.text(spec, "controllerName");
    if (!PROVISIONING_CONTROLLER.equals(controller)) {
      d.warnings.add("AdmissionCheck:controller:" + controller, o.location(), what + ": controller " + controller
          + " is not run by batchsim; the check stays Pending until the timeline answers it (setAdmissionCheck)");
      comment.add("controller " + controller + ": Pending until the timeline answers it (setAdmissionCheck)");
    } else {
      KubeObject config = config(d, o, spec, configs);
      String pool = PoolChoice.pool(d, o.name(), comment);
      if (pool != null) {
        entry.put("provisioningRequest", provisioning(d, o, config, pool, comment));
      } else {
        comment.add("no node pool to grow: Pending until the timeline answers it (setAdmissionCheck)");
      }
    }
    MapNode built = entry.build();
    d.admissionChecks.add(built);
    d.comments.put(built, comment);
  }

  /** The check's ProvisioningRequestConfig, or null (warned: Kueue keeps such a check inactive). */
  private static KubeObject config(ScenarioDraft d, KubeObject o, Node spec, Map<String, KubeObject> configs) {
    Node ref = Tree.get(spec, "parameters");
    String kind = Tree.text(ref, "kind");
    String name = Tree.text(ref, "name");
    KubeObject config = CONFIG.equals(kind) && KueueManifestReader.GROUP.equals(Tree.text(ref, "apiGroup"))
        ? configs.get(name) : null;
    if (config == null) {
      d.warnings.add("AdmissionCheck:parameters", ref == null ? o.location() : ref.location(), CHECK + " " + o.name()
          + ": " + (ref == null ? "no spec.parameters" : "spec.parameters names no " + CONFIG + " among the inputs")
          + " (Kueue marks such a check inactive, BadParametersRef); imported with Kueue's default parameters");
    }
    return config;
  }

  /** The provisioningRequest block: the config's parameters, then assumed autoscaler behaviour. */
  private static Node provisioning(ScenarioDraft d, KubeObject check, KubeObject config, String pool,
      List<String> comment) {
    Node spec = config == null ? null : Tree.get(config.node(), "spec");
    Tree.Map_ p = Tree.map(config == null ? check.location() : config.location(), "provisioningRequest");
    if (config != null) {
      comment.add("parameters from " + CONFIG + " " + config.name() + " (" + config.location() + ")");
      CONFIG_SPEC.keep(spec, CONFIG, CONFIG + " " + config.name(), d.warnings); // podSetUpdates, parameters, ...
    }
    String cls = cls(d, config, Tree.text(spec, "provisioningClassName"));
    p.put("class", cls, HERE);
    p.put("pool", pool, HERE);
    boolean atomic = !cls.equals(ProvisioningSpec.CHECK_CAPACITY);
    Tree.Map_ lognormal = Tree.map(HERE, "").put("median", "6m", HERE).put("p99", "20m", HERE);
    p.put("delay", atomic ? Tree.map(HERE, "").put("lognormal", lognormal.build()).build()
        : Tree.string(HERE, "", "10s"));
    p.put("failureProbability", Tree.integer(HERE, "", 0));
    if (atomic) {
      p.put("bookingExpiry", "10m", HERE);
    }
    comment.add("Assumptions to edit (a cluster does not say them): delay " + (atomic
        ? "lognormal median 6m, p99 20m (node provisioning)" : "10s (one autoscaler loop)")
        + ", failureProbability 0" + (atomic ? ", bookingExpiry 10m (cluster-autoscaler's capacity booking)" : "")
        + ", pool " + pool + " and its autoscaling range");
    Node retry = RETRY.keep(Tree.get(spec, "retryStrategy"), CONFIG, CONFIG, new Warnings()); // warned above
    if (retry instanceof MapNode m && !m.entries().isEmpty()) {
      p.put("retry", retry);
    }
    List<Node> managed = new ArrayList<>();
    Set<String> known = PoolChoice.resources(d);
    for (Node r : Tree.items(spec, "managedResources")) {
      if (known.contains(Tree.text(r))) {
        managed.add(r);
      } else {
        d.warnings.at("ProvisioningRequestConfig:managedResources", r, CONFIG + " " + config.name()
            + ": managed resource " + Tree.text(r) + " is on no node and in no ClusterQueue; dropped");
      }
    }
    if (!managed.isEmpty()) {
      p.put("managedResources", Tree.list(HERE, "", managed));
    }
    return p.build();
  }

  private static String cls(ScenarioDraft d, KubeObject config, String className) {
    if (className == null) {
      return ProvisioningSpec.ATOMIC_SCALE_UP;
    }
    String cls = CLASSES.get(className);
    if (className.equals(GKE_QUEUED)) {
      d.warnings.add("ProvisioningRequestConfig:class:" + className, config.location(), CONFIG + " " + config.name()
          + ": provisioningClassName " + className + " (GKE queued provisioning) is modelled as "
          + "best-effort-atomic-scale-up: all nodes or none, after the delay");
    } else if (cls == null) {
      d.warnings.add("ProvisioningRequestConfig:class:" + className, config.location(), CONFIG + " " + config.name()
          + ": provisioningClassName " + className + " is not one batchsim models (check-capacity, "
          + "best-effort-atomic-scale-up); read as best-effort-atomic-scale-up");
      cls = ProvisioningSpec.ATOMIC_SCALE_UP;
    }
    return cls;
  }

  /** Every check name the draft's ClusterQueues use, with where it is written. */
  private static Map<String, Node> checksNamed(ScenarioDraft d) {
    Map<String, Node> out = new LinkedHashMap<>();
    for (Node cq : d.clusterQueues) {
      for (Node c : Tree.items(cq, "admissionChecks")) {
        out.putIfAbsent(Tree.text(c), c);
      }
      for (Node rule : Tree.items(cq, "admissionChecksStrategy", "admissionChecks")) {
        Node name = Tree.get(rule, "name");
        if (Tree.text(name) != null) {
          out.putIfAbsent(Tree.text(name), name);
        }
      }
    }
    return out;
  }

  private static String queueOf(ScenarioDraft d, String check) {
    return PoolChoice.queuesUsing(d, check).stream().map(cq -> Tree.text(cq, "name")).findFirst().orElse("?");
  }
}
