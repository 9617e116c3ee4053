package batchsim.core.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.kueue.tas.TasFlavorSnapshot;
import batchsim.core.kueue.tas.TasNode;
import batchsim.core.kueue.tas.TasPlacement;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.TopologyRequest;
import batchsim.core.model.TopologySpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * TAS in Kueue's cycle, driven through the engine API: Fit / Preempt / NoFit as the flavor assigner derives
 * them, victims chosen for their domains, the in-cycle recomputation when an earlier entry took the chosen
 * domain, and node-failure repair through the second pass.
 */
class TasEngineTest {
  static final ResourceSpace RES = ResourceSpace.of(List.of("cpu", "memory", "pods"));
  static final String RACK = "topology/rack";
  static final String HOST = TopologySpec.HOSTNAME;

  long now;
  final List<String> log = new ArrayList<>();

  /** Records the host callbacks; eviction completes immediately unless told otherwise. */
  final class Host implements KueueHost {
    KueueEngine engine;
    final List<Long> secondPassAt = new ArrayList<>();

    @Override
    public void onAdmitted(Workload w) {
      log.add("admitted " + w.id() + " " + engine.topologyPlacement(w));
    }

    @Override
    public void onEvicted(Workload w) {
      log.add("evicted " + w.id() + " " + w.evictionReason());
    }

    @Override
    public void scheduleInadmissibleRequeue(long atMs) {}

    @Override
    public void scheduleSecondPass(long atMs) {
      secondPassAt.add(atMs);
    }

    @Override
    public void onTopologyReassigned(Workload w) {
      log.add("reassigned " + w.id() + " " + engine.topologyPlacement(w));
    }
  }

  final Host host = new Host();

  /** One TAS flavor over {@code racks} racks of {@code hosts} hosts with 1 cpu each; one CQ with cpu quota. */
  KueueEngine engine(int racks, int hosts, long quotaCpu, PreemptionSpec preemption, String... cqs) {
    ResourceFlavorSpec flavor = new ResourceFlavorSpec("tas", new TreeMap<>(Map.of("pool", "tas")), List.of(),
        List.of(), "topo");
    List<ClusterQueueSpec> specs = new ArrayList<>();
    for (String cq : cqs) {
      specs.add(new ClusterQueueSpec(cq, cqs.length > 1 ? "all" : null, List.of(new ResourceGroupSpec(List.of("cpu"),
          List.of(new FlavorQuotaSpec("tas", Map.of("cpu", QuotaSpec.nominal(quotaCpu * 1000)))))),
          QueueingStrategy.BEST_EFFORT_FIFO, preemption, FlavorFungibility.DEFAULT, 1.0, List.of()));
    }
    KueueEngine e = new KueueEngine(KueueConfig.defaults(), RES, List.of(flavor), List.of(), specs, () -> now);
    host.engine = e;
    e.setHost(host);
    e.recordEvents(true);
    List<TasNode> nodes = new ArrayList<>();
    for (int r = 1; r <= racks; r++) {
      for (int h = 1; h <= hosts; h++) {
        String name = "r" + r + "-x" + h;
        nodes.add(new TasNode(name, new TreeMap<>(Map.of("pool", "tas", RACK, "r" + r, HOST, name)), List.of(),
            Resources.wrap(new long[] {1000, 1L << 30, 110})));
      }
    }
    e.configureTopologies(List.of(new TopologySpec("topo", List.of(RACK, HOST))), nodes);
    return e;
  }

  static WorkloadSpec wl(String id, int pods, TopologyRequest topology) {
    return new WorkloadSpec(id, null, "lq", 0, 0, null,
        List.of(PodSetSpec.of("main", pods, Resources.wrap(new long[] {1000, 0, 0})).withTopology(topology)), 1);
  }

  static final PreemptionSpec LOWER = new PreemptionSpec(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER,
      PreemptionPolicy.NEVER, null);

  static List<String> slots(KueueEngine e, Workload w) {
    List<String> out = new ArrayList<>();
    for (TasPlacement p : e.topologyPlacement(w)) {
      for (TasPlacement.Slot s : p.slots()) {
        out.add(s.domain() + ":" + s.count());
      }
    }
    return out;
  }

  @Test
  void fitPlacesOnTheTightestRackAndTakesItsCapacity() {
    KueueEngine e = engine(2, 3, 100, PreemptionSpec.NEVER, "cq");
    Workload a = e.submit(wl("a", 2, TopologyRequest.required(RACK)), "cq", 0, 1, null);
    e.runCycle();
    assertEquals(List.of("r1-x1:1", "r1-x2:1"), slots(e, a));
    Workload b = e.submit(wl("b", 1, TopologyRequest.required(RACK)), "cq", 0, 2, null);
    e.runCycle();
    // BestFit: r1 has 1 host left, the tightest rack for 1 pod.
    assertEquals(List.of("r1-x3:1"), slots(e, b));
    TasFlavorSnapshot s = e.topologySnapshots().get(0);
    assertEquals(1, s.freeDomains(0)); // r2
    e.finish(a);
    assertEquals(3000, s.remainingIn(s.domains(0).get(1), 0));
    assertEquals(2000, s.remainingIn(s.domains(0).get(0), 0));
  }

  @Test
  void quotaFitsButNodesAreFragmentedMeansPreempt() {
    // Kueue: quota Fit, TAS fails on the live tree -> Preempt; it fits on an empty cluster -> stays Preempt.
    KueueEngine e = engine(2, 2, 100, PreemptionSpec.NEVER, "cq");
    Workload a = e.submit(wl("a", 3, TopologyRequest.preferred(RACK)), "cq", 0, 1, null);
    e.runCycle();
    assertEquals(List.of("r1-x1:1", "r1-x2:1", "r2-x1:1"), slots(e, a));
    Workload c = e.submit(wl("c", 2, TopologyRequest.required(RACK)), "cq", 0, 3, null);
    e.runCycle();
    assertEquals(WorkloadState.PENDING, c.state());
    assertEquals("WaitingForQuota", c.pendingReason());
    assertTrue(c.pendingMessage().contains("topology \"topo\" allows to fit only 1 out of 2 pod(s)"), c.pendingMessage());
    assertTrue(e.inadmissiblePending("cq").contains(c));
  }

  @Test
  void tooLargeForAnyRackIsNoFit() {
    KueueEngine e = engine(2, 2, 100, PreemptionSpec.NEVER, "cq");
    Workload big = e.submit(wl("big", 3, TopologyRequest.required(RACK)), "cq", 0, 1, null);
    e.runCycle();
    assertEquals("TopologyPlacementFailed", big.pendingReason());
    assertTrue(big.pendingMessage().contains("allows to fit only 2 out of 3 pod(s)"), big.pendingMessage());
    // Preferred goes up a level instead: it spreads over both racks.
    Workload pref = e.submit(wl("pref", 3, TopologyRequest.preferred(RACK)), "cq", 0, 2, null);
    e.runCycle();
    assertEquals(3, slots(e, pref).size());
  }

  @Test
  void victimsAreChosenByTheirDomains() {
    KueueEngine e = engine(2, 2, 100, LOWER, "cq");
    Workload a = e.submit(wl("a", 1, TopologyRequest.required(RACK)), "cq", 0, 1, null);
    e.runCycle();
    now = 10;
    Workload b = e.submit(wl("b", 1, TopologyRequest.required(RACK)), "cq", 0, 2, null);
    e.runCycle();
    assertEquals(List.of("r1-x1:1"), slots(e, a));
    assertEquals(List.of("r1-x2:1"), slots(e, b));
    now = 20;
    // r1 is full, r2 empty: the high-priority pair fits without preemption.
    Workload c = e.submit(wl("c", 2, TopologyRequest.required(RACK)), "cq", 0, 3, null);
    e.runCycle();
    assertEquals(List.of("r2-x1:1", "r2-x2:1"), slots(e, c));
    e.finish(c);
    e.finish(a);
    // Now r1 holds b, r2 holds nothing after a new low one takes r2-x1.
    now = 30;
    Workload d = e.submit(wl("d", 1, TopologyRequest.required(RACK)), "cq", 0, 4, null);
    e.runCycle();
    assertEquals(List.of("r1-x1:1"), slots(e, d)); // tightest: r1 has 1 free
    Workload f = e.submit(wl("f", 1, TopologyRequest.required(RACK)), "cq", 0, 5, null);
    e.runCycle();
    assertEquals(List.of("r2-x1:1"), slots(e, f));
    now = 40;
    // One pod on each rack; a pair needs a whole rack. Quota fits: TAS turns it into Preempt, and the
    // victim is the newest lower-priority workload (f), whose removal frees r2.
    Workload high = e.submit(wl("high", 2, TopologyRequest.required(RACK)), "cq", 10, 6, null);
    log.clear();
    e.runCycle();
    assertEquals(List.of("evicted f Preempted"), log);
    assertEquals(WorkloadState.PENDING, high.state());
    e.evictionComplete(f);
    now = 50;
    e.runCycle();
    assertEquals(List.of("r2-x1:1", "r2-x2:1"), slots(e, high));
  }

  @Test
  void anEarlierEntryTakingTheDomainMakesTheNextOneRecompute() {
    // Two ClusterQueues nominate against the same state and both pick r1; the second recomputes onto r2.
    KueueEngine e = engine(2, 2, 100, PreemptionSpec.NEVER, "cq-a", "cq-b");
    Workload a = e.submit(wl("a", 2, TopologyRequest.required(RACK)), "cq-a", 0, 1, null);
    Workload b = e.submit(wl("b", 2, TopologyRequest.required(RACK)), "cq-b", 0, 2, null);
    Scheduler.CycleOutcome o = e.runCycle();
    assertEquals(2, o.admitted());
    assertEquals(List.of("r1-x1:1", "r1-x2:1"), slots(e, a));
    assertEquals(List.of("r2-x1:1", "r2-x2:1"), slots(e, b));
  }

  @Test
  void aPreemptorWithoutCandidatesReservesItsEmptyClusterDomainsForTheCycle() {
    // Kueue reserveCapacityForUnreclaimablePreempt + updateAssignmentForTAS: A (first in the cycle) needs a
    // whole rack; each rack has one host taken, so it is Preempt with no candidates and reserves the rack
    // it would get on an empty cluster (r1). B, nominated on r1-x2 at cycle start, recomputes onto r2.
    KueueEngine e = engine(2, 2, 100, PreemptionSpec.NEVER, "cq-a", "cq-b");
    Workload w1 = e.submit(wl("w1", 1, TopologyRequest.required(HOST)), "cq-a", 0, 1, null);
    e.runCycle();
    Workload w2 = e.submit(wl("w2", 1, TopologyRequest.required(HOST)), "cq-a", 0, 2, null);
    e.runCycle();
    Workload w3 = e.submit(wl("w3", 1, TopologyRequest.required(HOST)), "cq-a", 0, 3, null);
    e.runCycle();
    assertEquals(List.of(List.of("r1-x1:1"), List.of("r1-x2:1"), List.of("r2-x1:1")),
        List.of(slots(e, w1), slots(e, w2), slots(e, w3)));
    e.finish(w2); // one busy host per rack: r1-x1 and r2-x1
    Workload a = e.submit(wl("A", 2, TopologyRequest.required(RACK)), "cq-a", 10, 4, null);
    Workload b = e.submit(wl("B", 1, TopologyRequest.required(RACK)), "cq-b", 0, 5, null);
    e.runCycle();
    assertEquals(WorkloadState.PENDING, a.state());
    assertEquals(List.of("r2-x2:1"), slots(e, b));
    assertTrue(e.checks().checkQuotaInvariants().isEmpty(), () -> e.checks().checkQuotaInvariants().toString());
  }

  @Test
  void nodeFailureIsRepairedWithinTheRequiredRack() {
    KueueEngine e = engine(2, 3, 100, PreemptionSpec.NEVER, "cq");
    Workload a = e.submit(wl("a", 2, TopologyRequest.required(RACK)), "cq", 0, 1, null);
    e.runCycle();
    assertEquals(List.of("r1-x1:1", "r1-x2:1"), slots(e, a));
    now = 1000;
    e.nodeFailed("r1-x1");
    assertEquals("r1-x1", e.unhealthyNode(a));
    assertEquals(List.of(2000L), host.secondPassAt);
    now = 1500;
    e.runCycle(); // not ready yet
    assertEquals("r1-x1", e.unhealthyNode(a));
    now = 2000;
    log.clear();
    e.runCycle();
    assertEquals(List.of("reassigned a [TasPlacement[podSet=0, flavor=tas, slots=[Slot[domain=r1-x2, nodes=[r1-x2], "
        + "count=1], Slot[domain=r1-x3, nodes=[r1-x3], count=1]]]]"), log);
    assertNull(e.unhealthyNode(a));
    assertEquals(1, e.nodeRepairs());
    assertEquals(WorkloadState.RESERVED, a.state());
    assertTrue(e.checks().checkQuotaInvariants().isEmpty(), () -> e.checks().checkQuotaInvariants().toString());
  }

  @Test
  void noSpareNodeInTheRackEvictsWithNodeFailures() {
    KueueEngine e = engine(2, 2, 100, PreemptionSpec.NEVER, "cq");
    Workload a = e.submit(wl("a", 2, TopologyRequest.required(RACK)), "cq", 0, 1, null);
    e.runCycle();
    e.nodeFailed("r1-x2");
    now = 1000;
    log.clear();
    e.runCycle();
    // r2 is empty, but the replacement must stay in r1: fail-fast evicts.
    assertEquals(List.of("evicted a NodeFailures"), log);
    assertTrue(a.conditions.get(ConditionType.EVICTED).message().contains("no replacement for unhealthy node(s): r1-x2"));
    e.evictionComplete(a);
    assertEquals(1, e.nodeFailureEvictions());
    now = 2000;
    e.runCycle();
    assertEquals(List.of("r2-x1:1", "r2-x2:1"), slots(e, a)); // requeued and admitted again, on r2
    assertTrue(e.checks().checkQuotaInvariants().isEmpty(), () -> e.checks().checkQuotaInvariants().toString());
  }

  @Test
  void aSecondFailedNodeEvicts() {
    KueueEngine e = engine(1, 4, 100, PreemptionSpec.NEVER, "cq");
    Workload a = e.submit(wl("a", 2, TopologyRequest.required(RACK)), "cq", 0, 1, null);
    e.runCycle();
    e.nodeFailed("r1-x1");
    log.clear();
    e.nodeFailed("r1-x2");
    assertEquals(List.of("evicted a NodeFailures"), log);
    assertTrue(a.conditions.get(ConditionType.EVICTED).message().contains("multiple TAS assigned node failures"));
    now = 1000;
    e.runCycle(); // an evicted workload takes no second pass
    assertFalse(e.tas.secondPass.isQueued(a));
  }

  @Test
  void aRecoveredNodeCancelsThePendingRepair() {
    KueueEngine e = engine(1, 3, 100, PreemptionSpec.NEVER, "cq");
    Workload a = e.submit(wl("a", 2, TopologyRequest.required(RACK)), "cq", 0, 1, null);
    e.runCycle();
    e.nodeFailed("r1-x1");
    e.nodeRecovered("r1-x1");
    assertNull(e.unhealthyNode(a));
    now = 1000;
    log.clear();
    e.runCycle();
    assertTrue(log.isEmpty(), log::toString);
    assertEquals(List.of("r1-x1:1", "r1-x2:1"), slots(e, a));
  }

  @Test
  void provisioningRequestDelaysTheTopologyToASecondPass() {
    // Kueue scheduler_tas_test "workload in CQ with ProvisioningRequest gets QuotaReserved only" (T01), then
    // the second pass once the check is Ready.
    KueueEngine e = engine(1, 2, 100, PreemptionSpec.NEVER, "cq");
    ClusterQueue q = e.tree.queuesByName.get("cq");
    q.spec = new ClusterQueueSpec(q.spec.name(), q.spec.cohort(), q.spec.resourceGroups(), q.spec.queueingStrategy(),
        q.spec.preemption(), q.spec.fungibility(), q.spec.fairWeight(), List.of("prov-check"));
    Workload w = e.submit(wl("foo", 1, TopologyRequest.required(HOST)), "cq", 0, 1, null);
    log.clear();
    e.runCycle();
    assertEquals(WorkloadState.RESERVED, w.state());
    assertEquals("Pending", e.delayedTopologyRequest(w, 0));
    assertTrue(slots(e, w).isEmpty());
    assertEquals(List.of("foo QuotaReserved Normal"), e.events());
    assertTrue(log.isEmpty(), log::toString); // not Admitted: no pods yet
    now = 5_000;
    e.setCheckState(w, "prov-check", CheckState.READY, 0, "");
    assertTrue(log.isEmpty(), log::toString); // still not Admitted: the topology comes first
    assertEquals(List.of(6_000L), host.secondPassAt);
    now = 6_000;
    e.runCycle();
    assertEquals("Ready", e.delayedTopologyRequest(w, 0));
    assertEquals(List.of("r1-x1:1"), slots(e, w));
    assertEquals(List.of("admitted foo [TasPlacement[podSet=0, flavor=tas, slots=[Slot[domain=r1-x1, "
        + "nodes=[r1-x1], count=1]]]]"), log);
    assertTrue(e.checks().checkQuotaInvariants().isEmpty(), () -> e.checks().checkQuotaInvariants().toString());
  }

  @Test
  void secondPassBackoff() {
    assertEquals(List.of(1000L, 2000L, 4000L, 8000L, 16000L, 30000L, 30000L),
        List.of(TasSecondPass.backoff(1), TasSecondPass.backoff(2), TasSecondPass.backoff(3), TasSecondPass.backoff(4), TasSecondPass.backoff(5), TasSecondPass.backoff(6),
            TasSecondPass.backoff(7)));
  }

  @Test
  void impliedTasInATasOnlyQueueAndNonTasPodsTakeCapacity() {
    KueueEngine e = engine(1, 3, 100, PreemptionSpec.NEVER, "cq");
    e.podOnNode(null, "r1-x1", new long[] {1000, 0, 1}, +1); // e.g. a DaemonSet pod
    Workload a = e.submit(wl("a", 2, null), "cq", 0, 1, null);
    e.runCycle();
    assertEquals(List.of("r1-x2:1", "r1-x3:1"), slots(e, a));
  }
}
