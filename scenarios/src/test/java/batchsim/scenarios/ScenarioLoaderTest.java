package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSchedulingConfig;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.core.model.WorkloadSpec;
import batchsim.workloads.ArrivalProcess;
import batchsim.workloads.Distribution;
import batchsim.workloads.WorkloadClass;
import batchsim.workloads.WorkloadList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ScenarioLoaderTest {
  static final Path QUICKSTART = Path.of("examples/quickstart.yaml");
  static final long GI = 1L << 30;

  @Test
  void load_quickstart_buildsSpecInFileOrderAndBaseUnits() throws Exception {
    LoadedScenario loaded = ScenarioLoader.load(QUICKSTART);
    SimulationSpec s = loaded.spec();

    assertEquals("quickstart", s.name());
    assertEquals(42, s.seed());
    assertEquals(SimulationSpec.NO_HORIZON, s.horizonMs());
    assertEquals(5 * 60_000, s.sampleIntervalMs());
    assertEquals(List.of("cpu", "memory", "pods", "nvidia.com/gpu"), s.resources().names());
    assertEquals(KueueConfig.defaults(), s.kueue());
    assertEquals(PodSchedulingConfig.defaults(), s.podScheduling());

    NodePoolSpec gpu = s.nodePools().get(1);
    ResourceSpace r = s.resources();
    assertEquals("gpu", gpu.name());
    assertEquals(4, gpu.count());
    assertEquals(64_000, gpu.allocatable().get(r.require("cpu")));
    assertEquals(512 * GI, gpu.allocatable().get(r.require("memory")));
    assertEquals(8, gpu.allocatable().get(r.require("nvidia.com/gpu")));
    assertEquals(110, s.nodePools().get(0).allocatable().get(r.require("pods")), "kubelet default maxPods");

    assertEquals(List.of("cpu-std", "a100"), s.flavors().stream().map(f -> f.name()).toList());
    assertEquals(List.of(new CohortSpec("gpu-pool", null, List.of(), 1.0)), s.cohorts());

    ClusterQueueSpec a = s.clusterQueues().get(0);
    assertEquals("team-a", a.name());
    assertEquals("gpu-pool", a.cohort());
    assertEquals(QueueingStrategy.BEST_EFFORT_FIFO, a.queueingStrategy());
    assertEquals(new PreemptionSpec(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY,
        PreemptionPolicy.LOWER_PRIORITY, 100), a.preemption());
    assertEquals(FlavorFungibility.DEFAULT, a.fungibility());
    assertEquals(List.of("cpu", "memory", "nvidia.com/gpu"), a.resourceGroups().get(0).coveredResources());
    FlavorQuotaSpec cpuStd = a.resourceGroups().get(0).flavors().get(0);
    assertEquals("cpu-std", cpuStd.flavor());
    assertEquals(QuotaSpec.nominal(96_000), cpuStd.resources().get("cpu"));
    assertEquals(QuotaSpec.nominal(384 * GI), cpuStd.resources().get("memory"));
    assertEquals(new QuotaSpec(16, 16, 16), a.resourceGroups().get(0).flavors().get(1).resources().get("nvidia.com/gpu"));

    // team-b merges team-a's block (<<: *team) and replaces name and preemption.
    ClusterQueueSpec b = s.clusterQueues().get(1);
    assertEquals("team-b", b.name());
    assertEquals(a.resourceGroups(), b.resourceGroups());
    assertEquals(new PreemptionSpec(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY,
        PreemptionPolicy.NEVER, null), b.preemption());

    assertEquals(List.of("team-a/main", "team-b/main"), s.localQueues().stream().map(q -> q.name()).toList());
    assertEquals(5, s.workloadSources().size());
    WorkloadClass bTrain = (WorkloadClass) s.workloadSources().get(2);
    assertEquals("b-train", bTrain.name());
    assertEquals(1000, bTrain.priority(), "resolved from priorityClass high");
    assertEquals("high", bTrain.priorityClass());
    assertEquals(new ArrivalProcess.Poisson(80 * 60_000), bTrain.arrivals());
    assertEquals(new Distribution.LogNormal(90 * 60_000, 6 * 3_600_000), bTrain.runtime());
    assertEquals(3_600_000, bTrain.startMs());
    assertEquals(24 * 3_600_000, bTrain.untilMs());
    assertEquals(WorkloadClass.UNLIMITED, bTrain.count());

    WorkloadClass etl = (WorkloadClass) s.workloadSources().get(3);
    PodSetSpec etlPods = etl.podSets().get(0);
    assertEquals("main", etlPods.name(), "a lone pod set without a name");
    assertEquals(4, etlPods.count());
    assertEquals(2, etlPods.minCount());
    assertEquals(100, etl.count());

    WorkloadList list = (WorkloadList) s.workloadSources().get(4);
    WorkloadSpec bench = list.workloads().get(0);
    assertEquals("b-benchmark", bench.id());
    assertEquals(12 * 3_600_000, bench.createdMs());
    assertEquals(1000, bench.priority());
    assertEquals(3 * 3_600_000, bench.runtimeMs());
    assertEquals(32_000, bench.podSets().get(0).perPod().get(r.require("cpu")));
  }

  @Test
  void load_quickstart_generatesAFewHundredWorkloadsInOneDay() throws Exception {
    SimulationSpec s = ScenarioLoader.load(QUICKSTART).spec();
    SplittableRandom root = new SplittableRandom(s.seed());
    int total = 0;
    long last = 0;
    for (WorkloadSourceSpec source : s.workloadSources()) {
      try (WorkloadSource w = source.open(root.split())) {
        for (WorkloadSpec spec = w.next(); spec != null; spec = w.next()) {
          total++;
          last = Math.max(last, spec.createdMs());
        }
      }
    }
    assertTrue(total >= 200 && total <= 500, "workloads: " + total);
    assertTrue(last < 24 * 3_600_000L, "last arrival " + last);
  }

  @Test
  void load_hashIsSha256OfFileBytes() throws Exception {
    LoadedScenario loaded = ScenarioLoader.load(QUICKSTART);
    assertEquals(ScenarioLoader.sha256(Files.readAllBytes(QUICKSTART)), loaded.sha256());
    assertTrue(loaded.sha256().matches("[0-9a-f]{64}"));
    assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        ScenarioLoader.sha256(new byte[0]), "SHA-256 of nothing");
  }

  @Test
  void parse_minimal_appliesKueueDefaultsAndParsesQuantities() throws Exception {
    SimulationSpec s = ScenarioLoader.load(Path.of("src/test/resources/valid/minimal.yaml")).spec();
    assertEquals(1, s.seed(), "default seed");
    assertEquals(List.of("cpu", "memory", "pods"), s.resources().names());
    ClusterQueueSpec cq = s.clusterQueues().get(0);
    assertNull(cq.cohort());
    assertEquals(PreemptionSpec.NEVER, cq.preemption());
    assertEquals(QueueingStrategy.BEST_EFFORT_FIFO, cq.queueingStrategy());
    assertEquals(1.0, cq.fairWeight());
    assertEquals(List.of(), s.cohorts());
    // cpu "500m" is 500 milli-cores; memory "64Gi" is 64 * 2^30 bytes.
    assertEquals(QuotaSpec.nominal(500), cq.resourceGroups().get(0).flavors().get(0).resources().get("cpu"));
    assertEquals(QuotaSpec.nominal(68_719_476_736L),
        cq.resourceGroups().get(0).flavors().get(0).resources().get("memory"));
    WorkloadSpec w = ((WorkloadList) s.workloadSources().get(0)).workloads().get(0);
    assertEquals(250, w.podSets().get(0).perPod().get(0));
    assertEquals(0, w.createdMs());
    assertEquals(0, w.priority());
    assertNull(w.priorityClass());
  }

  @Test
  void parse_cohortNamedOnlyByClusterQueues_isImplicitRootInOrderOfFirstMention() throws Exception {
    SimulationSpec s = ScenarioLoader.parse("t.yaml", """
        name: t
        cluster: {nodePools: []}
        cohorts: [{name: org}]
        clusterQueues:
          - {name: a, cohortName: zeta}
          - {name: b, cohort: org}
          - {name: c, cohortName: alpha}
          - {name: d, cohortName: zeta}
        """).spec();
    assertEquals(List.of(new CohortSpec("org", null, List.of(), 1.0), CohortSpec.implicit("zeta"),
        CohortSpec.implicit("alpha")), s.cohorts());
  }

  @Test
  void parse_resourceNames_cpuMemoryPodsFirstThenFirstAppearance() throws Exception {
    // example.com/fpga appears first (line 5) although the class using it comes later in binding order.
    SimulationSpec s = ScenarioLoader.parse("t.yaml", """
        name: t
        horizon: 1d
        workloads:
          classes:
            - {name: x, queue: q, arrival: {every: 1h}, runtime: 1m, podSets: [{requests: {example.com/fpga: 1, nvidia.com/gpu: 2}}]}
        cluster:
          nodePools: [{name: p, count: 1, allocatable: {nvidia.com/gpu: 8, cpu: 1, example.com/fpga: 1}}]
        clusterQueues:
          - name: cq
            resourceGroups:
              - coveredResources: [example.com/fpga, nvidia.com/gpu]
                flavors: [{name: f, resources: [{name: example.com/fpga, nominalQuota: 1}, {name: nvidia.com/gpu, nominalQuota: 8}]}]
        resourceFlavors: [{name: f}]
        localQueues: [{name: q, clusterQueue: cq}]
        """).spec();
    assertEquals(List.of("cpu", "memory", "pods", "example.com/fpga", "nvidia.com/gpu"), s.resources().names());
    assertEquals(new ArrivalProcess.FixedInterval(3_600_000),
        ((WorkloadClass) s.workloadSources().get(0)).arrivals());
  }

  @Test
  void parse_arrivalAndRuntimeForms() throws Exception {
    SimulationSpec s = ScenarioLoader.parse("t.yaml", """
        name: t
        cluster: {nodePools: []}
        clusterQueues: [{name: cq, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: 1}]}]}]}]
        resourceFlavors: [{name: f}]
        localQueues: [{name: q, clusterQueue: cq}]
        workloads:
          classes:
            - {name: a, queue: q, arrival: {at: [0s, 5m, 1h]}, runtime: {uniform: {min: 10m, max: 1h}}, podSets: [{requests: {cpu: 1}}]}
            - {name: b, queue: q, arrival: {poisson: {meanGap: 5m}}, count: 3, runtime: {exponential: {mean: 1h}}, podSets: [{requests: {cpu: 1}}]}
            - {name: c, queue: q, arrival: {poisson: {rate: 12/h}}, until: 1h, runtime: {constant: 90s}, podSets: [{requests: {cpu: 1}}]}
        """).spec();
    WorkloadClass a = (WorkloadClass) s.workloadSources().get(0);
    WorkloadClass b = (WorkloadClass) s.workloadSources().get(1);
    WorkloadClass c = (WorkloadClass) s.workloadSources().get(2);
    assertEquals(new ArrivalProcess.ExplicitTimes(List.of(0L, 300_000L, 3_600_000L)), a.arrivals());
    assertEquals(new Distribution.Uniform(600_000, 3_600_000), a.runtime());
    assertEquals(new ArrivalProcess.Poisson(300_000), b.arrivals());
    assertEquals(new Distribution.Exponential(3_600_000), b.runtime());
    assertEquals(new ArrivalProcess.Poisson(300_000), c.arrivals(), "12/h is a mean gap of 5 minutes");
    assertEquals(new Distribution.Constant(90_000), c.runtime());
  }

  @Test
  void withSeed_replacesOnlyTheSeed() throws Exception {
    LoadedScenario loaded = ScenarioLoader.load(QUICKSTART);
    LoadedScenario reseeded = loaded.withSeed(7);
    assertEquals(7, reseeded.spec().seed());
    assertEquals(loaded.spec().clusterQueues(), reseeded.spec().clusterQueues());
    assertEquals(loaded.sha256(), reseeded.sha256());
  }
}
