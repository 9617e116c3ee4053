package batchsim.scenarios.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.Taint;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.workloads.trace.NodePools;
import batchsim.workloads.trace.NodeRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ImportReadersTest {
  static final Path DIR = Path.of("src/test/resources/imports");
  final List<String> problems = new ArrayList<>();

  List<KubeObject> read(String file) throws Exception {
    return KubeObjects.read(DIR.resolve(file), file, (at, path, m) -> problems.add(at + ": " + m));
  }

  @Test
  void kubeObjects_listAndMultiDocument_keepLineNumbers() throws Exception {
    List<KubeObject> list = read("kueue-export.yaml");
    assertEquals(11, list.size());
    assertEquals("ResourceFlavor/on-demand", list.get(0).describe());
    assertEquals(7, list.get(0).location().line(), "items keep their line in the file");
    List<KubeObject> docs = read("kueue-setup.yaml");
    assertEquals(List.of("Namespace", "ResourceFlavor", "ResourceFlavor", "ClusterQueue", "LocalQueue"),
        docs.stream().map(KubeObject::kind).toList());
    assertEquals(9, docs.get(1).location().line(), "documents after --- keep their line numbers");
    assertEquals("default", docs.get(4).namespace());
    assertEquals(List.of(), problems);
  }

  @Test
  void kubeObjects_syntaxErrorInALaterDocument_isLocated() {
    List<KubeObject> objects = KubeObjects.parse("x.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n"
        + "---\napiVersion: v1\nkind: [\n", (at, path, m) -> problems.add(at + ": " + m));
    assertEquals(1, objects.size());
    assertEquals(1, problems.size());
    assertTrue(problems.get(0).startsWith("x.yaml:8:1: YAML syntax error"), problems.get(0));
  }

  @Test
  void kueueManifests_translatedToV1beta2_unmodelledFieldsWarnedOnce() throws Exception {
    Warnings w = new Warnings();
    List<KubeObject> objects = read("kueue-export.yaml");
    KueueManifestReader.Result r = KueueManifestReader.read(objects, w);
    List<MapNode> priorities = Priorities.of(objects, (at, path, m) -> problems.add(m), w).entries().stream()
        .map(Priorities.Entry::node).toList();
    assertEquals(List.of("on-demand", "spot", "tas-flavor"), names(r.flavors()));
    assertEquals(List.of("org"), names(r.cohorts()));
    assertEquals(List.of("team-a", "team-b"), names(r.clusterQueues()));
    assertEquals(List.of("high", "low"), names(priorities));
    assertEquals(List.of("default"), names(r.topologies()));
    assertEquals(List.of("cloud.provider.com/topology-block", "cloud.provider.com/topology-rack",
        "kubernetes.io/hostname"), Tree.items(r.topologies().get(0), "levels").stream().map(n -> Tree.text(n)).toList());
    MapNode a = r.clusterQueues().get(0);
    assertEquals("org", Tree.text(a, "cohortName"), "v1beta1 cohort becomes cohortName");
    assertNull(a.get("cohort"));
    assertEquals("MayStopSearch", Tree.text(a, "flavorFungibility", "whenCanBorrow"), "v1beta1 Borrow");
    assertNull(a.get("namespaceSelector"));
    assertNull(a.get("stopPolicy"));
    assertEquals("6", Tree.text(Tree.items(Tree.items(Tree.items(a, "resourceGroups").get(0), "flavors").get(0),
        "resources").get(1), "borrowingLimit"));
    MapNode lq = r.localQueues().get(0);
    assertEquals("team-a", Tree.text(lq, "namespace"));
    assertEquals("team-a", Tree.text(lq, "clusterQueue"));
    assertEquals("1000", Tree.text(priorities.get(0), "value"));
    assertEquals("default", Tree.text(r.flavors().get(2), "topologyName"), "TAS flavors keep their topology");

    List<String> lines = w.lines();
    assertEquals(3, lines.size(), String.join("\n", lines));
    assertTrue(has(lines, "ClusterQueue team-a: spec.namespaceSelector: batchsim has no namespaces"));
    assertTrue(has(lines, "ClusterQueue team-a: spec.stopPolicy is not modelled by batchsim; dropped (and 1 more like it)"),
        "stopPolicy twice: one warning");
    assertEquals("tas-flavor", Tree.text(Tree.items(Tree.items(r.clusterQueues().get(1), "admissionChecksStrategy",
        "admissionChecks").get(0), "onFlavors").get(0)), "admissionChecksStrategy is kept");
    assertTrue(has(lines, "LocalQueue main: spec.stopPolicy is not modelled"));
  }

  @Test
  void kueueManifests_admissionScopeAndLocalQueueWeightKept_withAWarningAboutTheConfiguration() {
    String yaml = String.join("\n",
        "apiVersion: kueue.x-k8s.io/v1beta2", "kind: ClusterQueue", "metadata: {name: cq}",
        "spec: {admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}}", "---",
        "apiVersion: kueue.x-k8s.io/v1beta2", "kind: LocalQueue", "metadata: {name: lq, namespace: ns}",
        "spec: {clusterQueue: cq, fairSharing: {weight: \"2\"}}", "");
    Warnings w = new Warnings();
    KueueManifestReader.Result r = KueueManifestReader.read(
        KubeObjects.parse("m.yaml", yaml, (at, path, m) -> problems.add(at + ": " + m)), w);
    assertEquals("UsageBasedAdmissionFairSharing", Tree.text(r.clusterQueues().get(0), "admissionScope", "admissionMode"));
    assertEquals("2", Tree.text(r.localQueues().get(0), "fairSharing", "weight"));
    assertEquals(1, w.lines().size(), String.join("\n", w.lines()));
    assertTrue(has(w.lines(), "m.yaml:4:") && has(w.lines(), "takes effect only with kueue.admissionFairSharing"),
        String.join("\n", w.lines()));
    assertEquals(List.of(), problems);
  }

  private static boolean has(List<String> lines, String part) {
    return lines.stream().anyMatch(l -> l.contains(part));
  }

  private static List<String> names(List<MapNode> entries) {
    return entries.stream().map(e -> Tree.text(e, "name")).toList();
  }

  @Test
  void nodes_readyNodesGroupedIntoPools() throws Exception {
    Warnings w = new Warnings();
    List<NodeRecord> nodes = NodeListReader.read(read("nodes.yaml"), NodeListReader.Options.DEFAULT,
        (at, path, m) -> problems.add(m), w);
    assertEquals(List.of("cpu-a", "cpu-b", "gpu-a"), nodes.stream().map(NodeRecord::name).toList());
    List<NodePools.Pool> pools = NodeListReader.pools(nodes);
    assertEquals(List.of("n2-standard-8", "a2-highgpu-8g"), pools.stream().map(NodePools.Pool::name).toList());
    assertEquals(2, pools.get(0).count());
    assertEquals(Map.of("node-type", "on-demand", "node.kubernetes.io/instance-type", "n2-standard-8"),
        pools.get(0).labels(), "hostname dropped");
    assertEquals(Map.of("cpu", 7910L, "memory", 30458044L * 1024, "pods", 110L), pools.get(0).allocatable());
    assertEquals(List.of(new Taint("nvidia.com/gpu", "present", "NoSchedule")), pools.get(1).taints());
    assertEquals(8L, pools.get(1).allocatable().get("nvidia.com/gpu"));
    assertTrue(has(w.lines(), "Node cpu-c is not Ready; left out"));
    assertTrue(has(w.lines(), "Node cpu-d is cordoned; left out"));
    assertTrue(has(w.lines(), "ephemeral-storage is not needed"));
    List<NodeRecord> all = NodeListReader.read(read("nodes.yaml"),
        new NodeListReader.Options(true, java.util.Set.of("node.kubernetes.io/instance-type"), java.util.Set.of()),
        (at, path, m) -> problems.add(m), new Warnings());
    assertEquals(5, all.size());
    assertEquals(List.of(4, 1), NodeListReader.pools(all).stream().map(NodePools.Pool::count).toList(),
        "keepLabels: nodes differing only in other labels share a pool");
    assertEquals(List.of(), problems);
  }

  @Test
  void job_podSetFromParallelismRequestsAndAnnotations() throws Exception {
    Warnings w = new Warnings();
    List<JobTemplateReader.JobTemplate> t = JobTemplateReader.read(read("job.yaml"), (at, p, m) -> problems.add(m), w);
    assertEquals(1, t.size());
    MapNode job = t.get(0).template();
    assertEquals("team-a/main", Tree.text(job, "queue"));
    assertEquals("high", Tree.text(job, "priorityClass"));
    Node ps = Tree.items(job, "podSets").get(0);
    assertEquals("main", Tree.text(ps, "name"));
    assertEquals("20", Tree.text(ps, "count"));
    assertEquals("5", Tree.text(ps, "minCount"));
    // containers 1 + 0.5 (limit only) + sidecar 0.1 = 1.6 cpu, below the 2-cpu init container
    assertEquals("2", Tree.text(ps, "requests", "cpu"));
    assertEquals("250Mi", Tree.text(ps, "requests", "memory"));
    assertEquals(38, Tree.get(ps, "requests", "memory").location().line(), "located at the first container's request");
    assertEquals(List.of(), problems);
    assertTrue(w.isEmpty(), String.join("\n", w.lines()));
  }

  @Test
  void jobSetAndPodGroup_podSetsPerRoleAndReplicas() throws Exception {
    Warnings w = new Warnings();
    List<JobTemplateReader.JobTemplate> t = JobTemplateReader.read(read("workloads.yaml"),
        (at, p, m) -> problems.add(m), w);
    assertEquals(List.of("jobset-tas-required", "sample-group"), t.stream().map(JobTemplateReader.JobTemplate::name)
        .toList());
    List<Node> js = Tree.items(t.get(0).template(), "podSets");
    assertEquals(List.of("workers", "driver"), js.stream().map(n -> Tree.text(n, "name")).toList());
    assertEquals(List.of("8", "1"), js.stream().map(n -> Tree.text(n, "count")).toList(), "replicas x parallelism");
    assertEquals("default/main", Tree.text(t.get(0).template(), "queue"), "no namespace: default");
    List<Node> group = Tree.items(t.get(1).template(), "podSets");
    assertEquals(List.of("sample-leader-56ccr", "sample-worker-m6xzk"), group.stream().map(n -> Tree.text(n, "name"))
        .toList(), "pods with generateName get unique names");
    assertEquals(List.of("1", "2"), group.stream().map(n -> Tree.text(n, "count")).toList());
    assertEquals("1", Tree.text(group.get(1), "requests", "nvidia.com/gpu"));
    assertEquals("Exists", Tree.text(Tree.items(group.get(1), "tolerations").get(0), "operator"));
    assertEquals("cloud.provider.com/topology-rack", Tree.text(js.get(0), "topology", "required"),
        "the TAS annotation becomes the pod set's topology request");
    assertTrue(has(w.lines(), "tolerationSeconds is not modelled by batchsim; dropped (and 1 more like it)"));
    assertEquals(List.of(), problems);
  }

  @Test
  void generator_namesQueuesAsKueueDoes() throws Exception {
    Warnings w = new Warnings();
    GeneratorReader.Config c = GeneratorReader.read(DIR.resolve("generator.yaml"), "generator.yaml",
        (at, p, m) -> problems.add(m), w);
    assertEquals(List.of("cq-0-0-cohort-0", "cq-0-1-cohort-0", "cq-0-0-cohort-1", "cq-0-1-cohort-1"),
        c.queues().stream().map(GeneratorReader.Queue::name).toList());
    assertEquals("cq-0-0-cohort-0/cq-0-0-cohort-0", c.queues().get(0).localQueue());
    assertEquals(2, c.queues().get(0).sets().size());
    assertEquals(20_000, c.queues().get(0).sets().get(1).templates().get(0).cpuMilli());
    assertTrue(w.isEmpty(), String.join("\n", w.lines()));
    assertEquals(List.of(), problems);
  }

  @Test
  void tasGenerator_topologyAndRequests() throws Exception {
    Warnings w = new Warnings();
    GeneratorReader.Config c = GeneratorReader.read(DIR.resolve("generator-tas.yaml"), "generator-tas.yaml",
        (at, p, m) -> problems.add(m), w);
    GeneratorReader.Topology t = c.topology();
    assertEquals("default-topology", t.name());
    assertEquals(List.of(1, 2, 4), t.counts());
    assertEquals(8, t.nodes());
    assertEquals(List.of("cpu", "memory", "pods"), List.copyOf(t.capacity().keySet()),
        "the node capacity is written in a fixed order (the import's output is deterministic)");
    assertEquals("tas-flavor", c.flavor());
    List<GeneratorReader.WorkloadSet> sets = c.queues().get(0).sets();
    assertEquals(batchsim.core.model.TopologyRequest.required("cloud.provider.com/topology-rack"),
        sets.get(0).templates().get(0).topology());
    assertEquals(batchsim.core.model.TopologyRequest.preferred("cloud.provider.com/topology-block"),
        sets.get(1).templates().get(0).topology());
    assertEquals(batchsim.core.model.TopologyRequest.unconstrained().withSlice("cloud.provider.com/topology-rack", 4),
        sets.get(2).templates().get(0).topology(), "balanced = Kueue's slice-only request");
    assertTrue(w.isEmpty(), String.join("\n", w.lines()));
    assertEquals(List.of(), problems);
  }

  @Test
  void writer_quotesOnlyWhatYamlWouldMisread() {
    assertTrue(ScenarioWriter.needsQuotes("true", false));
    assertTrue(ScenarioWriter.needsQuotes("6214e9", false), "a float in YAML");
    assertTrue(ScenarioWriter.needsQuotes("", false));
    assertTrue(ScenarioWriter.needsQuotes("a: b", false));
    assertTrue(ScenarioWriter.needsQuotes("a,b", true));
    assertTrue(!ScenarioWriter.needsQuotes("103959", false), "whole numbers are read by their text");
    assertTrue(!ScenarioWriter.needsQuotes("nvidia.com/gpu", false));
    assertTrue(!ScenarioWriter.needsQuotes("philly/6214e9", false));
  }
}
