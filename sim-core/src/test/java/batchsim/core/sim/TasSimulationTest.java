package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSchedulingConfig;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.Resources;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.TopologyRequest;
import batchsim.core.model.TopologySpec;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** TAS end to end: pods bound to their assigned nodes, a failed node repaired or the workload evicted. */
class TasSimulationTest {
  static final String RACK = "topology/rack";

  /** Two racks (a, b) of 4 nodes with 8 GPUs; one TAS flavor; one ClusterQueue with 64 GPUs. */
  static SimulationSpec spec(List<WorkloadSpec> jobs, List<TimelineEvent> timeline) {
    List<NodePoolSpec> pools = new ArrayList<>();
    for (String rack : List.of("a", "b")) {
      TreeMap<String, String> labels = new TreeMap<>(Map.of("pool", "gpu", RACK, rack));
      pools.add(new NodePoolSpec("rack-" + rack, 4, labels, List.of(),
          Resources.wrap(new long[] {64_000, 1L << 40, 110, 8})));
    }
    ResourceFlavorSpec flavor = new ResourceFlavorSpec("gpu", new TreeMap<>(Map.of("pool", "gpu")), List.of(),
        List.of(), "racks");
    ClusterQueueSpec cq = new ClusterQueueSpec("team", null, List.of(new ResourceGroupSpec(List.of("nvidia.com/gpu"),
        List.of(new FlavorQuotaSpec("gpu", Map.of("nvidia.com/gpu", QuotaSpec.nominal(64)))))),
        QueueingStrategy.BEST_EFFORT_FIFO, PreemptionSpec.NEVER, FlavorFungibility.DEFAULT, 1.0, List.of());
    WorkloadSourceSpec src = Specs.listSource(jobs);
    return new SimulationSpec("tas", 1, SimulationSpec.NO_HORIZON, Specs.RES, pools, List.of(flavor), List.of(),
        List.of(cq), List.of(new LocalQueueSpec("team", "team")), List.of(), KueueConfig.defaults(),
        PodSchedulingConfig.defaults(), List.of(src), 60_000, timeline, List.of(), List.of(),
        List.of(new TopologySpec("racks", List.of(RACK, TopologySpec.HOSTNAME))));
  }

  static WorkloadSpec rackJob(String id, long at, int pods) {
    return new WorkloadSpec(id, "rack-required", "team", at, 0, null,
        List.of(PodSetSpec.of("main", pods, Specs.res(0, 8)).withTopology(TopologyRequest.required(RACK))),
        3_600_000);
  }

  static Map<String, WorkloadRecord> byId(RunResult r) {
    Map<String, WorkloadRecord> m = new HashMap<>();
    r.workloads().forEach(w -> m.put(w.id(), w));
    return m;
  }

  static TimelineEvent fail(long at, String node) {
    return TimelineEvent.once(at, new ClusterAction.FailNodes(null, 0, List.of(node), null));
  }

  @Test
  void rackRequiredJobsShareNoRackAndAFailedNodeIsReplacedInTheRack() {
    // j1 (3 nodes) lands in rack a, j2 (4 nodes) needs a whole rack: b. Rack a keeps one spare node.
    List<WorkloadSpec> jobs = List.of(rackJob("j1", 0, 3), rackJob("j2", 0, 4));
    RunResult r = new Simulation(spec(jobs, List.of(fail(600_000, "rack-a-0")))).checked(true).run();
    WorkloadRecord j1 = byId(r).get("j1");
    assertEquals(0, j1.evictions());
    // The second pass runs 1 s after the failure; the pod restarts on rack-a-3 and the job starts over.
    assertEquals(601_000, j1.startedMs());
    assertEquals(601_000 + 3_600_000, j1.finishedMs());
    assertEquals(1, r.tas().nodeRepairs());
    assertEquals(0, r.tas().nodeFailureEvictions());
    assertEquals(2, r.tas().tasTimeToAdmission().getTotalCount());
    assertTrue(r.timeSeries().columns().contains("tas:gpu:free:" + RACK));
  }

  @Test
  void aFullRackCannotBeRepairedSoTheJobIsEvictedAndRequeued() {
    List<WorkloadSpec> jobs = List.of(rackJob("j1", 0, 4));
    RunResult r = new Simulation(spec(jobs, List.of(fail(600_000, "rack-a-0")))).checked(true).run();
    WorkloadRecord j1 = byId(r).get("j1");
    assertEquals(1, j1.evictions());
    assertEquals(1, r.tas().nodeFailureEvictions());
    assertEquals(0, r.tas().nodeRepairs());
    // Evicted at the second pass (1 s later); its pods take the default 30 s grace period to go, then it is
    // requeued and admitted on rack b within Kueue's cycle backoff.
    assertTrue(j1.startedMs() >= 631_000 && j1.startedMs() < 631_050, () -> "started " + j1.startedMs());
    assertEquals("FINISHED", j1.state());
  }
}
