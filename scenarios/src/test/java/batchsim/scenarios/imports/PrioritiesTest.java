package batchsim.scenarios.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job's priority in the order Kueue's jobframework.ExtractPriority resolves it. */
class PrioritiesTest {
  static final Path DIR = Path.of("src/test/resources/imports/priority");
  final List<String> problems = new ArrayList<>();
  final Warnings warnings = new Warnings();

  List<KubeObject> read(String... files) throws Exception {
    List<KubeObject> out = new ArrayList<>();
    for (String f : files) {
      out.addAll(KubeObjects.read(DIR.resolve(f), f, (at, path, m) -> problems.add(at + ": " + m)));
    }
    return out;
  }

  /** Each job's template by name, priorities resolved against the classes among {@code files}. */
  Map<String, MapNode> templates(String... files) throws Exception {
    List<KubeObject> objects = read(files);
    Priorities p = Priorities.of(objects, (at, path, m) -> problems.add(at + ": " + m), warnings);
    Map<String, MapNode> out = new LinkedHashMap<>();
    JobTemplateReader.read(objects, p, (at, path, m) -> problems.add(at + ": " + m), warnings)
        .forEach(t -> out.put(t.name(), t.template()));
    return out;
  }

  static String priority(MapNode t) {
    return Tree.text(t, "priorityClass") != null ? "class " + Tree.text(t, "priorityClass")
        : Tree.text(t, "priority") != null ? "value " + Tree.text(t, "priority") : "none";
  }

  @Test
  void label_thenPodTemplateClass_thenGlobalDefault() throws Exception {
    Map<String, MapNode> t = templates("kueue.yaml", "priorityclasses.yaml", "jobs.yaml");
    // ExtractPriority: the kueue.x-k8s.io/priority-class label first, over the pods' priorityClassName
    assertEquals("class high", priority(t.get("train-labelled")));
    assertEquals(jobsLine("train-labelled", "kueue.x-k8s.io/priority-class: high"),
        Tree.get(t.get("train-labelled"), "priorityClass").location().line(), "located at the label");
    // GetPriorityFromPriorityClass(extractPriorityFromPodSets): the pod template's class
    assertEquals("class high-priority", priority(t.get("train-pcn")));
    // extractPriorityFromPodSets: the first non-empty name over the pod sets (the JobSet's driver has none)
    assertEquals("class high-priority", priority(t.get("ranks")));
    // getDefaultPriority: no class named, the globalDefault PriorityClass
    assertEquals("class batch-default", priority(t.get("train-plain")));
    assertEquals(List.of(), problems);
  }

  @Test
  void nothingNamedAndNoDefault_isKueuesDefaultPriorityZero() throws Exception {
    Map<String, MapNode> t = templates("kueue.yaml", "jobs.yaml");
    assertEquals("none", priority(t.get("train-plain")), "constants.DefaultPriority: nothing written, 0");
  }

  @Test
  void severalGlobalDefaults_theLowestValueWins() throws Exception {
    Map<String, MapNode> t = templates("two-defaults.yaml", "jobs.yaml");
    assertEquals("class default-b", priority(t.get("train-plain")), "getDefaultPriorityClass: the lower value");
  }

  @Test
  void workloadPriorityClassNamedDefault_labelsJobsWithoutOne() throws Exception {
    Map<String, MapNode> t = templates("kueue.yaml", "priorityclasses.yaml", "default-wpc.yaml", "jobs.yaml");
    // ApplyDefaultWorkloadPriorityClass (WorkloadPriorityClassDefaulting): before any pod class
    assertEquals("class default", priority(t.get("train-plain")));
    assertEquals("class default", priority(t.get("train-pcn")));
    assertEquals("class high", priority(t.get("train-labelled")), "a label of its own stays");
  }

  @Test
  void kubeflowSchedulingPolicy_comesBeforeTheReplicasClasses() throws Exception {
    List<KubeObject> objects = read("priorityclasses.yaml", "pytorchjob.yaml");
    Priorities p = Priorities.of(objects, (at, path, m) -> problems.add(m), warnings);
    KubeObject job = objects.get(objects.size() - 1);
    List<Node> templates = List.of(Tree.get(job.node(), "spec", "pytorchReplicaSpecs", "Master", "template"),
        Tree.get(job.node(), "spec", "pytorchReplicaSpecs", "Worker", "template"));
    Tree.Map_ t = Tree.map(job.location(), "");
    p.apply(job, templates, t);
    assertEquals("class high-priority", priority(t.build()), "KubeflowJob.PriorityClass: runPolicy.schedulingPolicy");
  }

  @Test
  void sameNameInBothKinds_sharedWhenEqual_renamedWhenNot() throws Exception {
    List<KubeObject> objects = read("kueue.yaml", "priorityclasses.yaml");
    List<Priorities.Entry> entries = Priorities.of(objects, (at, path, m) -> problems.add(m), warnings).entries();
    Map<String, String> values = new LinkedHashMap<>();
    entries.forEach(e -> values.put(Tree.text(e.node(), "name"), Tree.text(e.node(), "value")));
    assertEquals(Map.of("high", "1000", "low", "10", "batch-default", "100", "high-priority", "100000",
        "high-pod", "500", "system-cluster-critical", "2000000000", "system-node-critical", "2000001000"), values);
    Priorities.Entry renamed = entries.stream().filter(e -> Tree.text(e.node(), "name").equals("high-pod"))
        .findFirst().orElseThrow();
    assertTrue(renamed.comment().get(1).contains("PriorityClass high (scheduling.k8s.io/v1, value 500) listed as "
        + "high-pod: WorkloadPriorityClass high has value 1000"), renamed.comment().toString());
    Priorities.Entry low = entries.stream().filter(e -> Tree.text(e.node(), "name").equals("low")).findFirst()
        .orElseThrow();
    assertTrue(low.comment().get(1).startsWith("also PriorityClass low (scheduling.k8s.io/v1) from "
        + "priorityclasses.yaml"), low.comment().toString());

    Map<String, MapNode> t = templates("kueue.yaml", "priorityclasses.yaml", "jobs.yaml");
    assertEquals("class high-pod", priority(t.get("train-high-pod")), "the pod class, under its scenario name");
    assertEquals("class low", priority(t.get("train-low-pod")));
  }

  @Test
  void missingClasses_areLocatedWarnings_andPriorityZero() throws Exception {
    Map<String, MapNode> t = templates("kueue.yaml", "priorityclasses.yaml", "jobs.yaml");
    assertEquals("value 0", priority(t.get("train-gold")));
    assertEquals("value 0", priority(t.get("train-urgent")));
    List<String> lines = warnings.lines();
    assertTrue(lines.contains("jobs.yaml:" + jobsLine("train-gold", "priorityClassName: gold") + ":28: "
        + "Job/research/train-gold names PriorityClass gold, which the inputs do not have: Kubernetes' admission "
        + "would refuse its pods and Kueue would not create its Workload; using priority 0 (add `kubectl get "
        + "priorityclasses -o yaml` to the inputs if it exists)"), String.join("\n", lines));
    assertTrue(lines.stream().anyMatch(l -> l.contains("Job/research/train-urgent names WorkloadPriorityClass urgent, "
        + "which the inputs do not have: Kueue would not create its Workload (event WorkloadPriorityClassNotFound)")),
        String.join("\n", lines));
  }

  @Test
  void aManifestAlone_passesClassNamesThrough() throws Exception {
    List<JobTemplateReader.JobTemplate> t = JobTemplateReader.read(read("jobs.yaml"), (at, path, m) -> problems.add(m),
        new Warnings());
    Map<String, MapNode> byName = new LinkedHashMap<>();
    t.forEach(j -> byName.put(j.name(), j.template()));
    assertEquals("class high", priority(byName.get("train-labelled")));
    assertEquals("class gold", priority(byName.get("train-gold")), "a reference to the scenario's own list");
    assertNull(byName.get("train-plain").get("priority"));
  }

  @Test
  void badValue_isALocatedError() {
    List<KubeObject> objects = KubeObjects.parse("pc.yaml", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
        + "metadata: {name: x}\nvalue: lots\n", (at, path, m) -> problems.add(m));
    Priorities.of(objects, (at, path, m) -> problems.add(at + ": " + m), warnings);
    assertEquals(List.of("pc.yaml:4:8: PriorityClass/x: value must be a 32-bit whole number, got 'lots'"), problems);
  }

  private static int jobsLine(String job, String text) throws Exception {
    List<String> lines = java.nio.file.Files.readAllLines(DIR.resolve("jobs.yaml"));
    int start = lines.indexOf("    name: " + job);
    for (int i = start; i >= 0; i--) {
      if (lines.get(i).equals("- apiVersion: batch/v1")) {
        start = i;
        break;
      }
    }
    for (int i = start; i < lines.size(); i++) {
      if (lines.get(i).strip().equals(text)) {
        return i + 1;
      }
    }
    throw new AssertionError(text);
  }
}
