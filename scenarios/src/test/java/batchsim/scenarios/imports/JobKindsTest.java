package batchsim.scenarios.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.sim.Simulation;
import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.ScenarioLoader;
import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.yaml.Node;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every job kind Kueue integrates at ff69552e, read from {@code kubectl get -o yaml} output: pod set names,
 * counts, minCount and per-pod requests as Kueue's integration for the kind derives them (the Kueue
 * function is named at each test).
 */
class JobKindsTest {
  static final Path DIR = Path.of("src/test/resources/imports/kinds");
  final List<String> problems = new ArrayList<>();
  final Warnings warnings = new Warnings();

  /** A pod set as the template has it: "name count [min] {requests}". */
  record PodSet(String name, String count, String minCount, Map<String, String> requests) {
    @Override
    public String toString() {
      return name + " " + count + (minCount == null ? "" : " min " + minCount) + " " + requests;
    }
  }

  List<JobTemplate> read(String file) throws Exception {
    return JobTemplateReader.read(KubeObjects.read(DIR.resolve(file), file, (at, p, m) -> problems.add(at + ": " + m)),
        (at, p, m) -> problems.add(at + ": " + m), warnings);
  }

  /** The pod sets of the only template in {@code file}, with no problem reported. */
  List<String> podSets(String file) throws Exception {
    List<JobTemplate> t = read(file);
    assertEquals(List.of(), problems);
    assertEquals(1, t.size(), t.toString());
    return podSets(t.get(0));
  }

  static List<String> podSets(JobTemplate t) {
    List<String> out = new ArrayList<>();
    for (Node ps : Tree.items(t.template(), "podSets")) {
      Map<String, String> req = new LinkedHashMap<>();
      Tree.entries(ps, "requests").forEach((k, e) -> req.put(k, Tree.text(e.value())));
      out.add(new PodSet(Tree.text(ps, "name"), Tree.text(ps, "count"), Tree.text(ps, "minCount"), req).toString());
    }
    return out;
  }

  @Test
  void job_mainWithMinCount() throws Exception {
    // Kueue job.PodSets: main, min(parallelism, completions), minCount from job-min-parallelism
    assertEquals(List.of("main 3 min 2 {cpu=1, memory=200Mi}"), podSets("job.yaml"));
    JobTemplate t = read("job.yaml").get(0);
    assertEquals("ml/ml-queue", Tree.text(t.template(), "queue"));
    assertEquals("high", Tree.text(t.template(), "priorityClass"));
  }

  @Test
  void jobSet_replicasTimesPods_childJobCountedWithIt() throws Exception {
    // Kueue jobset.PodSets: one per replicated job, replicas x PodsCountPerReplica
    assertEquals(List.of("driver 1 {cpu=2, memory=4Gi}", "workers 8 {cpu=4, memory=16Gi, nvidia.com/gpu=1}"),
        podSets("jobset.yaml"));
    assertTrue(String.join("\n", warnings.lines()).contains("Job/ml/trainer-js-workers-0 belongs to JobSet/trainer-js"),
        warnings.lines().toString());
  }

  @Test
  void kubeflowJobs_replicaTypesInKueuesOrder_lowerCased() throws Exception {
    // Kueue kubeflowjob.PodSets over each JobControl's OrderedReplicaTypes, NewPodSetReference lower-cases
    assertEquals(List.of("master 1 {cpu=2, memory=4Gi}", "worker 3 {cpu=4, memory=8Gi, nvidia.com/gpu=1}"),
        podSets("pytorchjob.yaml"));
    assertEquals(List.of("chief 1 {cpu=1, memory=2Gi}", "ps 2 {cpu=1, memory=2Gi}", "worker 4 {cpu=2, memory=4Gi}"),
        podSets("tfjob.yaml"), "TFJob: Chief, Master, PS, Worker, Evaluator");
    assertEquals(List.of("worker 2 {cpu=2, memory=2Gi}"), podSets("paddlejob.yaml"));
    assertEquals(List.of("master 1 {cpu=1, memory=1Gi}", "worker 2 {cpu=1, memory=1Gi}"), podSets("xgboostjob.yaml"));
    assertEquals(List.of("worker 2 {cpu=1, memory=2Gi}"), podSets("jaxjob.yaml"));
  }

  @Test
  void mpiJob_launcherAndWorker_runLauncherAsWorkerChangesNothing() throws Exception {
    // Kueue mpijob.PodSets: orderedReplicaTypes Launcher, Worker; replicas default 1
    assertEquals(List.of("launcher 1 {cpu=1, memory=1Gi}", "worker 2 {cpu=16, memory=64Gi, nvidia.com/gpu=8}"),
        podSets("mpijob.yaml"));
  }

  @Test
  void trainJob_fromItsRuntimeWithNumNodesAndResourcesPerNode() throws Exception {
    // Kueue trainjob.PodSets: the child JobSet from the ClusterTrainingRuntime; numNodes on the trainer job,
    // resourcesPerNode merged into its node container; the initializer keeps 1 pod
    assertEquals(List.of("dataset-initializer 1 {cpu=2, memory=4Gi}", "node 4 {cpu=8, memory=8Gi, nvidia.com/gpu=2}"),
        podSets("trainjob.yaml"));
  }

  @Test
  void rayCluster_headAndWorkerGroups_multiHost() throws Exception {
    // Kueue raycluster.BuildPodSets: head 1, per group replicas x numOfHosts, groupName lower-cased
    assertEquals(List.of("head 1 {cpu=1, memory=2Gi}", "small-group 2 {cpu=1, memory=1Gi}",
        "tpu-group 2 {cpu=4, memory=8Gi, nvidia.com/gpu=4}"), podSets("raycluster.yaml"));
  }

  @Test
  void rayJob_submitterBySubmissionMode_ownedClusterCountedWithIt() throws Exception {
    // Kueue rayjob.PodSets: addSubmitterPodSet (K8sJobMode), addSidecarSubmitterToHeadPodSet (SidecarMode)
    List<JobTemplate> t = read("rayjob.yaml");
    assertEquals(List.of(), problems);
    assertEquals(List.of("rayjob-sample", "rayjob-sidecar"), t.stream().map(JobTemplate::name).toList());
    assertEquals(List.of("head 1 {cpu=1, memory=2Gi}", "workers 2 {cpu=2, memory=4Gi}",
        "submitter 1 {cpu=500m, memory=200Mi}"), podSets(t.get(0)));
    assertEquals(List.of("head 1 {cpu=1500m, memory=2248Mi}", "workers 2 {cpu=2, memory=4Gi}"), podSets(t.get(1)));
    assertTrue(String.join("\n", warnings.lines()).contains("belongs to RayJob/rayjob-sample"), warnings.lines().toString());
  }

  @Test
  void rayService_gcsFaultTolerance_raisesTheHeadForRedisCleanup() throws Exception {
    // Kueue raycluster.accountForRedisCleanupInHeadPodSet: head requests at least 200m / 256Mi
    assertEquals(List.of("head 1 {cpu=200m, memory=256Mi}", "serve-workers 1 {cpu=2, memory=2Gi}"),
        podSets("rayservice.yaml"));
  }

  @Test
  void leaderWorkerSet_leaderAndWorkers_oneWorkloadPerGroup() throws Exception {
    // Kueue leaderworkerset podSets: leader 1 + worker size-1; one Workload per replica
    assertEquals(List.of("leader 1 {cpu=4, memory=32Gi, nvidia.com/gpu=8}", "worker 3 {cpu=4, memory=32Gi, nvidia.com/gpu=8}"),
        podSets("leaderworkerset.yaml"));
    assertEquals(2, read("leaderworkerset.yaml").get(0).standing());
  }

  @Test
  void appWrapper_inferredAndDeclaredPodSets_namedByIndex() throws Exception {
    // Kueue appwrapper.PodSets over GetComponentPodSpecs (InferPodSets for the PyTorchJob); names <aw>-<index>
    assertEquals(List.of("sample-aw-0 1 {cpu=1, memory=2Gi}", "sample-aw-1 2 {cpu=2, memory=4Gi, nvidia.com/gpu=1}",
        "sample-aw-2 3 {cpu=500m, memory=1Gi}"), podSets("appwrapper.yaml"));
  }

  @Test
  void sparkApplication_driverAndExecutorsFromCoreRequestAndMemory() throws Exception {
    // Kueue sparkapplication.PodSets: pods built by mutateSparkPod (coreRequest, memory as a Java size, gpu limit)
    assertEquals(List.of("driver 1 {cpu=1, memory=512Mi}", "executor 3 {cpu=2, memory=4Gi, nvidia.com/gpu=1}"),
        podSets("sparkapplication.yaml"));
  }

  @Test
  void deployment_onePodPerWorkload_itsPodCountedWithIt() throws Exception {
    // Kueue deployment integration: each pod is a Workload (pod.constructPodSets: main, 1)
    assertEquals(List.of("main 1 {cpu=500m, memory=1Gi}"), podSets("deployment.yaml"));
    assertEquals(3, read("deployment.yaml").get(0).standing());
    String w = String.join("\n", warnings.lines());
    assertTrue(w.contains("Pod/ml/web-6d4cf56db6-8k2xq belongs to Deployment/web"), w);
    assertTrue(w.contains("ReplicaSet/ml/web-6d4cf56db6 belongs to Deployment/web"), w);
  }

  @Test
  void statefulSet_onePodGroup() throws Exception {
    // Kueue statefulset pod reconciler: one group of replicas pods, role main
    assertEquals(List.of("main 3 {cpu=1, memory=2Gi}"), podSets("statefulset.yaml"));
    assertEquals(1, read("statefulset.yaml").get(0).standing());
  }

  @Test
  void pods_plainPodAndAGroupByRole() throws Exception {
    // Kueue pod.constructPodSets (main, 1) and constructGroupPodSets (one pod set per role)
    List<JobTemplate> t = read("pods.yaml");
    assertEquals(List.of(), problems);
    assertEquals(List.of("plain-pod", "sample-group"), t.stream().map(JobTemplate::name).toList());
    assertEquals(List.of("main 1 {cpu=250m, memory=64Mi}"), podSets(t.get(0)));
    assertEquals(List.of("sample-leader 1 {cpu=1, memory=1Gi}", "sample-worker-0 2 {cpu=1, memory=1Gi, nvidia.com/gpu=1}"),
        podSets(t.get(1)));
    assertNull(t.get(0).standing());
  }

  @Test
  void queueLabelledObjectsThatCannotBeModelled_areLocatedErrors() throws Exception {
    List<JobTemplate> t = read("unmodellable.yaml");
    assertEquals(List.of(), t);
    assertEquals(4, problems.size(), String.join("\n", problems));
    assertTrue(problems.get(0).startsWith("unmodellable.yaml:4:3: CronJob/ml/nightly carries kueue.x-k8s.io/queue-name"
        + " but CronJob (batch/v1) is not a job kind Kueue integrates"), problems.get(0));
    assertTrue(problems.get(1).contains("MPIJob/ml/legacy-mpi carries kueue.x-k8s.io/queue-name but MPIJob "
        + "(kubeflow.org/v1)"), problems.get(1));
    assertTrue(problems.get(2).contains("RayCluster/ml/autoscaled: in-tree autoscaling needs Kueue's workload slicing"),
        problems.get(2));
    assertTrue(problems.get(3).contains("TrainJob/ml/orphan: its runtime ClusterTrainingRuntime deepspeed-distributed is "
        + "not among the inputs"), problems.get(3));
    for (String p : problems) {
      assertTrue(p.matches("unmodellable\\.yaml:\\d+:\\d+: .*"), p);
    }
  }

  @TempDir
  Path tmp;

  @Test
  void everyKind_importedWithTheCluster_loadsAndRuns() throws Exception {
    List<Path> inputs = new ArrayList<>();
    try (var files = Files.list(DIR)) {
      files.filter(f -> !f.getFileName().toString().equals("unmodellable.yaml")).sorted().forEach(inputs::add);
    }
    Path out = tmp.resolve("cluster.yaml");
    ScenarioImport.Result r = ScenarioImport.run(inputs, out, ScenarioImport.Options.DEFAULT);
    assertEquals(List.of(), r.errors());
    assertTrue(r.notes().contains("ignored 2 objects that are not Kueue's business: 1 Service, 1 ConfigMap"),
        "objects that are not Kueue's business: one summary line\n" + r.notes());
    String yaml = r.yaml();
    assertTrue(yaml.contains("arrival: {at: [0s, 0s, 0s]}"), "the Deployment's 3 Workloads stand at t=0:\n" + yaml);
    assertTrue(yaml.contains("(LeaderWorkerSet vllm: 2 Workloads of "), yaml);
    assertTrue(yaml.contains("name: node"), "a TrainJob's pod sets are written out:\n" + yaml);
    LoadedScenario s = ScenarioLoader.parse(out.toString(), yaml);
    assertEquals(20, s.spec().workloadSources().size(), "one class per job");
    RunResult run = new Simulation(s.spec()).run();
    assertTrue(run.overall().finished() > 0, "workloads ran");
    assertEquals(run.overall().arrived(), run.overall().finished(), "every workload finished");
  }

  @Test
  void inputsWithNothingBatchsimReads_sayGeneratedPlaceholdersOnly() throws Exception {
    Path config = tmp.resolve("config.yaml");
    Files.writeString(config, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: ml}\ndata: {a: b}\n");
    ScenarioImport.Result r = ScenarioImport.run(List.of(config), tmp.resolve("out.yaml"), ScenarioImport.Options.DEFAULT);
    assertEquals(List.of(), r.errors());
    assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith(config + ":1:1: the inputs hold no job, queue, node or "
        + "trace batchsim reads")), r.warnings().toString());
  }
}
