package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.sim.Simulation;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Traces, node lists, job manifests and generator files used from scenarios. */
class TraceScenarioTest {
  /** Scenarios are named as if they were in this directory, so relative paths resolve against it. */
  static final String FILE = "src/test/resources/traces/scenario.yaml";

  static final String CPU_CLUSTER = """
      name: t
      cluster:
        nodePools: [{name: n, count: 8, allocatable: {cpu: 1, nvidia.com/gpu: 8}}]
      resourceFlavors: [{name: f}]
      clusterQueues:
        - name: cq
          resourceGroups:
            - coveredResources: [cpu, nvidia.com/gpu]
              flavors: [{name: f, resources: [{name: cpu, nominalQuota: 8}, {name: nvidia.com/gpu, nominalQuota: 64}]}]
        - name: other
          resourceGroups:
            - coveredResources: [cpu, nvidia.com/gpu]
              flavors: [{name: f, resources: [{name: cpu, nominalQuota: 8}, {name: nvidia.com/gpu, nominalQuota: 64}]}]
      localQueues:
        - {namespace: hpc, name: main, clusterQueue: cq}
        - {namespace: hpc, name: other, clusterQueue: other}
      priorityClasses: [{name: high, value: 100}]
      """;

  static LoadedScenario load(String yaml) throws ScenarioException {
    return ScenarioLoader.parse(FILE, yaml);
  }

  static List<String> problems(String yaml) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> load(yaml));
    return e.problems().stream().map(Problem::toString).toList();
  }

  static List<WorkloadSpec> arrivals(SimulationSpec spec) {
    List<WorkloadSpec> out = new ArrayList<>();
    for (var s : spec.workloadSources()) {
      WorkloadSource src = s.open(new SplittableRandom(1));
      WorkloadSpec w;
      while ((w = src.next()) != null) {
        out.add(w);
      }
      src.close();
    }
    return out;
  }

  @Test
  void swf_replaysEndToEnd() throws Exception {
    LoadedScenario s = load(CPU_CLUSTER + """
        workloads:
          traces:
            - {format: swf, path: small.swf, queue: hpc/main, priorityClass: high}
        """);
    RunResult r = new Simulation(s.spec()).checked(true).run();
    assertEquals(5, r.overall().arrived(), "7 jobs, 2 of unknown size or runtime");
    assertEquals(5, r.overall().finished());
    WorkloadRecord first = r.workloads().get(0);
    assertEquals("small-1", first.id(), "ids: the file name, then the job number");
  }

  @Test
  void gzipTrace_runsAsItsPlainText_namedWithoutGz() throws Exception {
    String plain = CPU_CLUSTER + "workloads:\n  traces:\n    - {format: swf, path: small.swf, queue: hpc/main}\n";
    LoadedScenario gz = load(plain.replace("small.swf", "small.swf.gz"));
    assertEquals(arrivals(load(plain).spec()), arrivals(gz.spec()));
    assertEquals("small-1", arrivals(gz.spec()).get(0).id());
  }

  @Test
  void damagedGzipTrace_isALocatedProblem() {
    List<String> p = problems(CPU_CLUSTER + """
        workloads:
          traces:
            - {format: swf, path: damaged.swf.gz, queue: hpc/main, onError: skip}
        """);
    assertEquals(1, p.size(), String.join("\n", p));
    assertTrue(p.get(0).matches("src/test/resources/traces/damaged\\.swf\\.gz:1:1: workloads\\.traces\\[0\\]: "
        + "not a valid gzip stream at byte \\d+ \\(.+\\)"), p.get(0));
  }

  @Test
  void swf_routedByUser_withDefaultQueue() throws Exception {
    LoadedScenario s = load(CPU_CLUSTER + """
        workloads:
          traces:
            - {format: swf, path: small.swf, queueFrom: user, queueMap: {"12": hpc/main}, queue: hpc/other,
               classFrom: group}
        """);
    List<WorkloadSpec> w = arrivals(s.spec());
    assertEquals(List.of("hpc/main", "hpc/other", "hpc/other", "hpc/main", "hpc/other"),
        w.stream().map(WorkloadSpec::localQueue).toList());
    assertEquals("3", w.get(0).workloadClass());
  }

  @Test
  void philly_unsortedFile_sortedWhenLoaded_vcQueues() throws Exception {
    LoadedScenario s = load(CPU_CLUSTER + """
        workloads:
          traces:
            - format: philly
              path: philly-small.csv
              queueFrom: vc
              queueMap: {"6214e9": hpc/main, 11cb48: hpc/main}
              queue: hpc/other
              unitsPerPod: 8
              speedup: 60
        """);
    List<WorkloadSpec> w = arrivals(s.spec());
    assertEquals(List.of(0L, 13_050L, 61_916L, 61_916L, 61_916L, 120_000L), w.stream().map(WorkloadSpec::createdMs).toList());
    WorkloadSpec sixteen = w.get(3);
    assertEquals(2, sixteen.podSets().get(0).count());
    RunResult r = new Simulation(s.spec()).checked(true).run();
    assertEquals(6, r.overall().finished());
  }

  @Test
  void alibaba_nodesFromTheTraceNodeList_podsWithSharedGpus() throws Exception {
    LoadedScenario s = load("""
        name: a
        cluster:
          nodesFrom:
            - {format: alibaba-nodes, path: alibaba-nodes.csv, gpuResource: alibaba.com/gpu-milli, gpuSharing: milli}
        resourceFlavors: [{name: f}]
        clusterQueues:
          - name: cq
            resourceGroups:
              - coveredResources: [cpu, memory, alibaba.com/gpu-milli]
                flavors: [{name: f, resources: [{name: cpu, nominalQuota: 600}, {name: memory, nominalQuota: 4Ti},
                          {name: alibaba.com/gpu-milli, nominalQuota: 100000}]}]
        localQueues: [{name: q, clusterQueue: cq}]
        workloads:
          traces:
            - {format: alibaba, path: alibaba-pods.csv, queue: q, gpuResource: alibaba.com/gpu-milli, gpuSharing: milli,
               dropCancelled: true}
        """);
    List<NodePoolSpec> pools = s.spec().nodePools();
    assertEquals(List.of("cpu-32c-256gi", "g2-96c-384gi-8gpu", "t4-104c-512gi-2gpu"),
        pools.stream().map(NodePoolSpec::name).toList());
    assertEquals(List.of(2, 3, 1), pools.stream().map(NodePoolSpec::count).toList());
    int gpu = s.spec().resources().indexOf("alibaba.com/gpu-milli");
    assertEquals(8000, pools.get(1).allocatable().get(gpu));
    assertEquals(110, pools.get(1).allocatable().get(s.spec().resources().indexOf("pods")), "kubelet default");
    List<WorkloadSpec> w = arrivals(s.spec());
    assertEquals(4, w.size(), "the never-scheduled pod is dropped");
    assertEquals(460, w.get(1).podSets().get(0).perPod().get(gpu));
    RunResult r = new Simulation(s.spec()).checked(true).run();
    assertEquals(4, r.overall().arrived());
  }

  @Test
  void malformedLines_failByDefault_eachReportedWithFileLineAndField() {
    List<String> p = problems(CPU_CLUSTER + """
        workloads:
          traces:
            - {format: swf, path: malformed.swf, queue: hpc/main}
        """);
    assertEquals(List.of(
        "src/test/resources/traces/malformed.swf:3:1: workloads.traces[0]: expected 18 whitespace-separated fields, got 17",
        "src/test/resources/traces/malformed.swf:5:25: workloads.traces[0]: run time: 'abc' is not a number",
        FILE + ":20:27: workloads.traces[0].path: 2 malformed lines in src/test/resources/traces/malformed.swf; "
            + "fix them, or skip them with onError: skip"), p);
  }

  @Test
  void malformedLines_skipped_whenAsked() throws Exception {
    LoadedScenario s = load(CPU_CLUSTER + """
        workloads:
          traces:
            - {format: swf, path: malformed.swf, queue: hpc/main, onError: skip}
        """);
    assertEquals(3, arrivals(s.spec()).size());
  }

  @Test
  void missingTrace_isALocatedProblem() {
    List<String> p = problems(CPU_CLUSTER + """
        workloads:
          traces:
            - {format: swf, path: ../nowhere/kth.swf, queue: hpc/main}
        """);
    assertEquals(List.of(FILE + ":20:27: workloads.traces[0].path: no such file: src/test/resources/nowhere/kth.swf"
        + " (relative paths are relative to the scenario file's directory)"), p);
  }

  @Test
  void vcWithoutLocalQueue_reportedAtItsFirstLine() {
    List<String> p = problems(CPU_CLUSTER + """
        workloads:
          traces:
            - {format: philly, path: philly-small.csv, queueFrom: vc, queueMap: {"6214e9": hpc/main, 11cb48: hpc/main,
               b436b2: hpc/main}}
        """);
    assertEquals(List.of("src/test/resources/traces/philly-small.csv:7:1: workloads.traces[0]: 1 job with vc '795a4c'"
        + " (the first at line 7 of src/test/resources/traces/philly-small.csv) go to LocalQueue '795a4c', which is not"
        + " defined (known: hpc/main, hpc/other); define it, map the value with queueMap, or give the trace a default"
        + " queue"), p);
  }

  @Test
  void mappedQueueMustExist_andCoverTheResources() {
    List<String> p = problems(CPU_CLUSTER + """
        workloads:
          traces:
            - {format: swf, path: small.swf, queue: hpc/nope}
            - {format: swf, path: small.swf, name: mem, queue: hpc/main, perPod: {memory: 1Gi}}
        """);
    assertEquals(2, p.size(), String.join("\n", p));
    assertTrue(p.get(0).startsWith(FILE + ":20:45: workloads.traces[0].queue: 5 jobs (the first at line 9 of "
        + "src/test/resources/traces/small.swf) go to LocalQueue 'hpc/nope', which is not defined"), p.get(0));
    assertTrue(p.get(1).contains("request memory, which ClusterQueue 'cq' (via LocalQueue 'hpc/main') does not cover"),
        p.get(1));
  }

  @Test
  void unsortedTrace_withSortFalse_isAnError() {
    List<String> p = problems(CPU_CLUSTER + """
        workloads:
          traces:
            - {format: philly, path: philly-small.csv, queue: hpc/main, sort: false}
        """);
    assertEquals(List.of("src/test/resources/traces/philly-small.csv:3:1: workloads.traces[0]: submitted before the job"
        + " on the line above: the trace is not sorted by submission time; remove sort: false (or set sort: true)"), p);
  }

  @Test
  void badOptions_reportedAtTheirKeys() {
    List<String> p = problems(CPU_CLUSTER + """
        workloads:
          traces:
            - {format: swf, path: small.swf, queueFrom: vc, sample: 2, gpuSharing: milli}
            - {format: csv, path: small.swf, queue: hpc/main}
        """);
    assertEquals(5, p.size(), String.join("\n", p));
    assertTrue(p.stream().anyMatch(s -> s.contains("'vc' is not a column of swf traces (one of user, group,")));
    assertTrue(p.stream().anyMatch(s -> s.contains("must be in (0, 1], the probability of keeping a job")));
    assertTrue(p.stream().anyMatch(s -> s.contains("'gpuSharing' applies to format alibaba only")));
    assertTrue(p.stream().anyMatch(s -> s.contains("'csv' is not one of swf, philly, alibaba, kueue-generator")));
    assertTrue(p.stream().anyMatch(s -> s.contains("a trace needs queue (every job to one LocalQueue) or queueFrom")));
  }

  @Test
  void workloadClass_fromAJobManifest() throws Exception {
    LoadedScenario s = load("""
        name: m
        cluster:
          nodePools: [{name: n, count: 4, allocatable: {cpu: 64, memory: 256Gi}}]
        resourceFlavors: [{name: f}]
        clusterQueues:
          - name: cq
            resourceGroups:
              - coveredResources: [cpu, memory]
                flavors: [{name: f, resources: [{name: cpu, nominalQuota: 128}, {name: memory, nominalQuota: 512Gi}]}]
        localQueues: [{namespace: team-a, name: main, clusterQueue: cq}]
        priorityClasses: [{name: high, value: 1000}]
        workloads:
          classes:
            - name: train
              manifest: ../imports/job.yaml     # queue, priority class and pod sets from the Job
              arrival: {poisson: {rate: 30/h}}
              count: 20
              runtime: 10m
        """);
    List<WorkloadSpec> w = arrivals(s.spec());
    assertEquals(20, w.size());
    WorkloadSpec first = w.get(0);
    assertEquals("team-a/main", first.localQueue());
    assertEquals(1000, first.priority());
    PodSetSpec ps = first.podSets().get(0);
    assertEquals(20, ps.count());
    assertEquals(5, ps.minCount());
    assertEquals(2000, ps.perPod().get(0), "max(containers + sidecar, init) = 2 cpu");
    RunResult r = new Simulation(s.spec()).checked(true).run();
    assertEquals(20, r.overall().finished());
  }

  @Test
  void manifestProblems_pointIntoTheManifest() {
    List<String> p = problems("""
        name: m
        cluster:
          nodePools: [{name: n, count: 1, allocatable: {cpu: 1, memory: 8Gi}}]
        resourceFlavors: [{name: f}]
        clusterQueues: [{name: cq, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: 1}]}]}]}]
        localQueues: [{name: q, clusterQueue: cq}]
        workloads:
          classes:
            - {name: a, manifest: ../imports/workloads.yaml, arrival: {every: 1m}, count: 1, runtime: 1m}
            - {name: b, manifest: {path: ../imports/workloads.yaml, name: jobset-tas-required}, queue: q,
               arrival: {every: 1m}, count: 1, runtime: 1m}
        """);
    assertEquals(3, p.size(), String.join("\n", p));
    // sorted by file: the manifest's problems come first, at their lines in the JobSet
    assertEquals("src/test/resources/imports/workloads.yaml:21:58: spec.replicatedJobs[0].template.spec.template.metadata"
        + ".annotations[kueue.x-k8s.io/podset-required-topology]: no topology has the level "
        + "'cloud.provider.com/topology-rack' (define topologies first)", p.get(0));
    assertTrue(p.get(1).startsWith("src/test/resources/imports/workloads.yaml:29:31: requests.memory: ClusterQueue 'cq'"
        + " (via LocalQueue 'q') does not cover resource 'memory'"), p.get(1));
    assertTrue(p.get(2).endsWith("holds 2 workloads (jobset-tas-required, sample-group); pick one with manifest: {path, name}"),
        p.get(2));
  }

  @Test
  void kueueGeneratorFile_asAWorkloadSource() throws Exception {
    StringBuilder sb = new StringBuilder("""
        name: g
        cluster:
          nodePools: [{name: n, count: 2, allocatable: {cpu: 64, pods: 1000}}]
        resourceFlavors: [{name: rf}]
        clusterQueues:
        """);
    StringBuilder lqs = new StringBuilder("localQueues:\n");
    for (String cq : List.of("cq-0-0-cohort-0", "cq-0-1-cohort-0", "cq-0-0-cohort-1", "cq-0-1-cohort-1")) {
      sb.append("  - {name: ").append(cq).append(", cohortName: ").append(cq.substring(7))
          .append(", resourceGroups: [{coveredResources: [cpu], flavors: [{name: rf, resources: [{name: cpu, "
              + "nominalQuota: 20, borrowingLimit: 100}]}]}]}\n");
      lqs.append("  - {namespace: ").append(cq).append(", name: ").append(cq).append(", clusterQueue: ").append(cq)
          .append("}\n");
    }
    LoadedScenario s = load(sb.append(lqs).append("""
        workloads:
          traces:
            - {format: kueue-generator, path: ../imports/generator.yaml}
        """).toString());
    List<WorkloadSpec> w = arrivals(s.spec());
    assertEquals(28, w.size(), "(5 small + 2 large) per ClusterQueue, 4 ClusterQueues");
    assertEquals("cq-0-0-cohort-0/small-0-0-0", w.get(0).id());
    assertEquals(100, w.get(0).createdMs());
    RunResult r = new Simulation(s.spec()).checked(true).run();
    assertEquals(28, r.overall().finished());
  }

  @Test
  void kueueGeneratorFile_tasLevelsMustExist() {
    List<String> p = problems(CPU_CLUSTER.replace("cq", "cq-0-0-cohort-0").replace("{namespace: hpc, name: main,",
        "{namespace: cq-0-0-cohort-0, name: cq-0-0-cohort-0,") + """
        workloads:
          traces:
            - {format: kueue-generator, path: ../imports/generator-tas.yaml,
               queueMap: {cq-0-1-cohort-0/cq-0-1-cohort-0: cq-0-0-cohort-0/cq-0-0-cohort-0}}
        """);
    assertEquals(3, p.size(), String.join("\n", p));
    assertTrue(p.get(0).startsWith("src/test/resources/imports/generator-tas.yaml:26:7: workloads.traces[0]: the "
        + "generator's workload class small-required-rack asks for topology level 'cloud.provider.com/topology-rack', "
        + "which no topology of the scenario has (define topologies)"), p.get(0));
  }
}
