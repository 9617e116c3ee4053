package batchsim.scenarios.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.model.AdmissionCheckSpec;
import batchsim.core.model.AutoscalingSpec;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.ProvisioningSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.sim.Simulation;
import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.ScenarioLoader;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.workloads.trace.NodePools;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GKE-like cluster with Kueue and a ProvisioningRequest check, as `kubectl get -o yaml` prints it: admission
 * checks and their configs, admissionChecksStrategy, nodes grouped by what schedules them (not by per-node
 * labels), NotReady and cordoned nodes, generateName.
 */
class KueueClusterImportTest {
  private static final Path DIR = Path.of("src/test/resources/imports/kueue");
  private static final List<Path> GKE = List.of(DIR.resolve("gpu-cluster.yaml"), DIR.resolve("gke-nodes.yaml"),
      DIR.resolve("train-job.yaml"));

  @TempDir
  Path tmp;

  private final List<String> problems = new ArrayList<>();

  private ScenarioImport.Result run(List<Path> inputs) {
    ScenarioImport.Result r = ScenarioImport.run(inputs, tmp.resolve("imported.yaml"), ScenarioImport.Options.DEFAULT);
    assertEquals(List.of(), r.errors());
    return r;
  }

  private LoadedScenario load(ScenarioImport.Result r) throws Exception {
    return ScenarioLoader.parse(tmp.resolve("imported.yaml").toString(), r.yaml());
  }

  private static boolean warned(ScenarioImport.Result r, String part) {
    return r.warnings().stream().anyMatch(w -> w.contains(part));
  }

  private static AdmissionCheckSpec check(LoadedScenario s, String name) {
    return s.spec().admissionChecks().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void provisioningCheck_takesItsConfigsParameters_andDocumentedAssumptions() throws Exception {
    ScenarioImport.Result r = run(GKE);
    LoadedScenario s = load(r);
    ProvisioningSpec p = check(s, "dws-prov").provisioning();
    assertEquals(ProvisioningSpec.ATOMIC_SCALE_UP, p.provisioningClass(), "queued-provisioning.gke.io");
    assertEquals(List.of(2, 120_000L, 900_000L), List.of(p.backoffLimitCount(), p.backoffBaseMs(), p.backoffMaxMs()));
    assertEquals(List.of("nvidia.com/gpu"), p.managedResources());
    assertEquals("a3-spot", p.scaleUpPool(), "the pool whose nodes carry the a3-spot flavor's labels");
    assertEquals(600_000, p.bookingExpiryMs());
    assertEquals(0.0, p.failureProbability());
    assertEquals(List.of(new AutoscalingSpec("a3-spot", 2, 10, 600_000)), s.spec().autoscaling());
    assertTrue(r.yaml().contains("# Assumptions to edit (a cluster does not say them): delay lognormal median 6m, p99 "
        + "20m (node provisioning),\n# failureProbability 0, bookingExpiry 10m"), r.yaml());
    assertTrue(warned(r, "ProvisioningRequestConfig dws-config: spec.podSetUpdates is not modelled by batchsim"));
    assertTrue(warned(r, "ProvisioningRequestConfig dws-config: spec.podSetMergePolicy is not modelled by batchsim"));
    assertTrue(warned(r, "provisioningClassName queued-provisioning.gke.io (GKE queued provisioning) is modelled as "
        + "best-effort-atomic-scale-up"));

    assertNull(check(s, "budget-approval").provisioning(), "another controller's check");
    assertTrue(warned(r, "gpu-cluster.yaml:255:3: AdmissionCheck budget-approval: controller "
        + "example.com/budget-approval is not run by batchsim; the check stays Pending until the timeline answers it"));

    ClusterQueueSpec research = s.spec().clusterQueues().get(0);
    assertEquals(List.of("dws-prov"), research.admissionChecks());
    assertEquals(Map.of("dws-prov", List.of("a3-spot")), research.checkFlavors(), "admissionChecksStrategy kept");
    assertTrue(r.warnings().stream().noneMatch(w -> w.contains("admissionChecksStrategy")), r.warnings().toString());
  }

  @Test
  void v1beta1Checks_checkCapacity_parametersWarned_missingConfigWarned() throws Exception {
    ScenarioImport.Result r = run(List.of(DIR.resolve("v1beta1-checks.yaml")));
    LoadedScenario s = load(r);
    ProvisioningSpec capacity = check(s, "capacity").provisioning();
    assertEquals(ProvisioningSpec.CHECK_CAPACITY, capacity.provisioningClass());
    assertEquals(List.of(3, 60_000L, 1_800_000L), List.of(capacity.backoffLimitCount(), capacity.backoffBaseMs(),
        capacity.backoffMaxMs()), "Kueue's default retryStrategy");
    assertEquals(List.of("nvidia.com/gpu"), capacity.managedResources());
    assertTrue(warned(r, "managed resource example.com/fpga is on no node and in no ClusterQueue; dropped"));
    assertTrue(warned(r, "AdmissionCheck capacity: spec.retryDelayMinutes is not modelled by batchsim"));
    assertTrue(warned(r, "ProvisioningRequestConfig capacity-config: spec.parameters is not modelled by batchsim"));
    assertTrue(warned(r, "v1beta1-checks.yaml:39:7: AdmissionCheck orphan: spec.parameters names no "
        + "ProvisioningRequestConfig among the inputs (Kueue marks such a check inactive, BadParametersRef)"));
    assertEquals(ProvisioningSpec.ATOMIC_SCALE_UP, check(s, "orphan").provisioning().provisioningClass());
  }

  @Test
  void noPoolToGrow_checkWithoutProvisioningRequest() throws Exception {
    ScenarioImport.Result r = run(List.of(DIR.resolve("v1beta1-checks.yaml"),
        Path.of("src/test/resources/traces/alibaba-nodes.csv")));
    assertNull(check(load(r), "capacity").provisioning(), "Alibaba nodes come by nodesFrom: no pool is known here");
    assertTrue(warned(r, "admission check capacity: there are no node pools to grow"), r.warnings().toString());
  }

  @Test
  void checkNamedButNotImported_isAPendingCheck() throws Exception {
    ScenarioImport.Result r = run(List.of(Path.of("src/test/resources/imports/kueue-export.yaml")));
    assertNull(check(load(r), "dws-prov").provisioning());
    assertTrue(warned(r, "admission check dws-prov is named by a ClusterQueue but not among the inputs"));
  }

  @Test
  void gkeNodes_groupedByFlavorTopologyAndSelectorLabels_notPerNodeOnes() throws Exception {
    List<KubeObject> objects = new ArrayList<>();
    for (Path p : GKE) {
      objects.addAll(KubeObjects.read(p, p.getFileName().toString(), (at, path, m) -> problems.add(at + ": " + m)));
    }
    Set<String> labels = SchedulingLabels.of(objects);
    assertEquals(Set.of("cloud.google.com/gke-nodepool", "cloud.google.com/gke-spot",
        "cloud.google.com/gce-topology-block", "cloud.google.com/gce-topology-subblock",
        "cloud.google.com/gke-accelerator"), labels, "flavors, topology levels but the hostname, the job's nodeSelector");
    Warnings w = new Warnings();
    NodeListReader.Cluster c = NodeListReader.cluster(objects, labels, (at, path, m) -> problems.add(m), w);
    assertEquals(List.of(), problems);
    assertEquals(List.of("a3-reserved", "a3-reserved-2", "a3-spot", "default-pool"),
        c.pools().stream().map(NodePools.Pool::name).toList(), "one pool per node pool and TAS subblock");
    assertEquals(List.of(2, 2, 2, 2), c.pools().stream().map(NodePools.Pool::count).toList());
    assertTrue(c.pools().stream().noneMatch(p -> p.labels().containsKey("kubernetes.io/hostname")
        || p.labels().containsKey("cloud.google.com/gce-topology-host")));
    assertTrue(c.pools().stream().allMatch(p -> p.taints().stream().noneMatch(t -> t.key().startsWith("node.kubernetes"))),
        "the unreachable and unschedulable taints are the nodes' state, imported as events");
    assertEquals(8, c.scenarioNames().size());
    assertEquals("a3-reserved-2-0", c.scenarioNames().get("gke-ml-a3-reserved-a50126cc-d431"));
    assertEquals("default-pool-1", c.scenarioNames().get("gke-ml-default-pool-ee17560c-380a"));
    assertEquals(List.of("a3-reserved-2-0"), c.notReady());
    assertEquals(List.of("a3-reserved-2-1"), c.cordoned());
    assertTrue(c.droppedLabels().contains("cloud.google.com/gce-topology-host"));
    assertTrue(w.lines().stream().anyMatch(l -> l.contains("gke-nodes.yaml:232:3: Node gke-ml-a3-reserved-a50126cc-d431 "
        + "is not Ready: imported as a3-reserved-2-0, NotReady (setNodeNotReady at 0s in events)")), w.lines().toString());
  }

  @Test
  void gkeImport_writesNodeNamesAndStateEvents() throws Exception {
    ScenarioImport.Result r = run(GKE);
    assertTrue(r.yaml().contains("# Node names (real=scenario): gke-ml-a3-reserved-23f83465-2c7c=a3-reserved-0\n"),
        r.yaml());
    LoadedScenario s = load(r);
    assertEquals(List.of("a3-reserved", "a3-reserved-2", "a3-spot", "default-pool"),
        s.spec().nodePools().stream().map(NodePoolSpec::name).toList());
    List<TimelineEvent> events = s.spec().timeline();
    assertEquals(2, events.size());
    assertTrue(events.stream().allMatch(e -> e.atMs() == 0));
    assertTrue(r.yaml().contains("  setNodeNotReady: {nodes: [a3-reserved-2-0]}"), r.yaml());
    assertTrue(r.yaml().contains("  cordonNodes: {nodes: [a3-reserved-2-1]}"), r.yaml());
  }

  @Test
  void endToEnd_importLoadRun_spotWorkloadsWaitForProvisioning() throws Exception {
    LoadedScenario s = load(run(GKE));
    RunResult r = new Simulation(s.spec()).checked(true).run();
    assertEquals(200, r.overall().finished(), "every job of the class runs");
    assertTrue(r.provisioning().requests() > 0, "spot admissions go through the ProvisioningRequest check");
    assertTrue(r.provisioning().nodesAdded() > 0, "the a3-spot pool grows");
  }

  @Test
  void generateName_uniqueRepeatableNames() {
    String pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: worker-\n  namespace: ml\nspec: {}\n";
    String text = pod + "---\n" + pod + "---\n" + pod;
    List<KubeObject> a = KubeObjects.parse("pods.yaml", text, (at, path, m) -> problems.add(m));
    List<KubeObject> b = KubeObjects.parse("pods.yaml", text, (at, path, m) -> problems.add(m));
    List<String> names = a.stream().map(KubeObject::name).toList();
    assertEquals(3, Set.copyOf(names).size(), names.toString());
    assertTrue(names.stream().allMatch(n -> n.matches("worker-[bcdfghjklmnpqrstvwxz2456789]{5}")), names.toString());
    assertEquals(names, b.stream().map(KubeObject::name).toList(), "the same files give the same names");
    assertNotEquals(names.get(0), KubeObjects.parse("other.yaml", text, (at, path, m) -> { }).get(0).name(),
        "the file's name is part of the seed");
    assertEquals(List.of(), problems);
  }
}
