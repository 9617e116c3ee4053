package batchsim.core.kueue;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.Eviction;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.TopologySpec;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.kueue.tas.TasFlavorSnapshot;
import batchsim.core.kueue.tas.TasNode;
import batchsim.core.kueue.tas.TasPlacement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The Kueue admission engine: the quota tree (cohorts and ClusterQueues), their pending queues, the
 * scheduling cycle and the workload lifecycle transitions Kueue's controllers perform.
 *
 * <p>The engine owns all Kueue state and changes it only through these methods, called from the event
 * loop; it is the facade of the parts that model Kueue's own: the {@link QuotaTree}, the
 * {@link WorkloadLifecycle}, {@link AdmissionChecks}, {@link InadmissibleRequeues}, {@link QueueLifecycle},
 * the {@link Scheduler} cycle with its {@link FlavorAssigner} and {@link Preemptor}, and [TAS] {@link Tas}.
 * It never schedules events itself: whatever takes time (pod termination, the inadmissible-requeue batch
 * delay) is asked of the {@link KueueHost}.
 */
public final class KueueEngine {
  final KueueConfig config;
  final FlavorResources index;
  /** The ResourceFlavors by index, as last created or updated. */
  final List<ResourceFlavorSpec> flavorSpecs;
  final QuotaTree tree;
  final QueueObjects queueObjects;
  private final QueueChanges queueChanges;
  final FlavorAssigner assigner = new FlavorAssigner(this);
  final Preemptor preemptor = new Preemptor(this);
  final Scheduler scheduler = new Scheduler(this);
  final QueueLifecycle queueLifecycle = new QueueLifecycle(this);
  final WorkloadLifecycle workloads = new WorkloadLifecycle(this);
  final AdmissionChecks admissionChecks = new AdmissionChecks(this);
  final WorkloadEdits edits = new WorkloadEdits(this);
  final InadmissibleRequeues requeues = new InadmissibleRequeues(this);
  /** [TAS] Topology Aware Scheduling: trees of the TAS flavors, topology assignments, second pass. */
  final Tas tas = new Tas(this);
  final EventRecorder recorder = new EventRecorder();
  final WorkloadStateCheck stateCheck = new WorkloadStateCheck(this);
  final QuotaInvariants quotaInvariants = new QuotaInvariants(this);
  final WaitingTime waiting = new WaitingTime(this);
  private final EngineChecks checks = new EngineChecks(this);
  private final LongSupplier clock;
  KueueHost host = KueueHost.NONE;
  /** Admission fair sharing, null unless the Configuration has an admissionFairSharing block. */
  AfsAccounting afs;
  long cycle;
  /** Kueue admission_cycle_preemption_skips of the last cycle, per ClusterQueue. */
  final Map<String, Integer> skippedPreemptions = new LinkedHashMap<>();

  public KueueEngine(KueueConfig config, ResourceSpace resources, List<ResourceFlavorSpec> flavors,
      List<CohortSpec> cohortSpecs, List<ClusterQueueSpec> cqSpecs, LongSupplier clock) {
    this.config = config;
    this.clock = clock;
    this.flavorSpecs = new ArrayList<>(flavors);
    List<String> names = new ArrayList<>();
    for (ResourceFlavorSpec f : flavors) {
      names.add(f.name());
    }
    this.index = new FlavorResources(names, resources);
    this.tree = new QuotaTree(index, cohortSpecs, cqSpecs);
    this.queueObjects = new QueueObjects(this);
    this.queueChanges = new QueueChanges(this);
  }

  public void setHost(KueueHost host) {
    this.host = host;
  }

  /**
   * Turns admission fair sharing on (the Configuration's admissionFairSharing block) before anything arrives:
   * every LocalQueue of the run (with those created later, which get their ledger entry when created). Asks
   * the host for the first usage sample.
   */
  public void enableAdmissionFairSharing(List<batchsim.core.model.LocalQueueSpec> localQueues) {
    afs = new AfsAccounting(this, config.admissionFairSharing(), localQueues);
    afs.start();
  }

  /** Admission fair sharing (samples, usage, ledger), or null when it is off. */
  public AfsAccounting admissionFairSharing() {
    return afs;
  }

  long now() {
    return clock.getAsLong();
  }

  public FlavorResources index() {
    return index;
  }

  public long cycle() {
    return cycle;
  }

  // ------------------------------------------------------------------ workloads

  /**
   * Creates a workload in a ClusterQueue and queues it.
   *
   * @param uid Kueue UID for tie-breaks (null in simulations: arrival order breaks ties)
   */
  public Workload submit(WorkloadSpec spec, String clusterQueue, int priority, long seq, String uid) {
    return workloads.submit(spec, clusterQueue, priority, seq, uid);
  }

  /** Test/conformance setup: the workload already holds quota with the given flavors and counts. */
  public Workload assumeAdmitted(WorkloadSpec spec, String clusterQueue, int priority, long seq, String uid,
      int[][] flavors, long reservedAtMs) {
    return workloads.assumeAdmitted(spec, clusterQueue, priority, seq, uid, flavors, reservedAtMs);
  }

  /**
   * A workload that holds quota when the run starts (an imported cluster's live state): reserved since
   * {@code reservedAtMs} with the given flavors and counts, and Admitted with every check Ready when
   * {@code admitted}, else waiting for its checks. Nothing is told to the host until {@link #restored}.
   */
  public Workload restore(WorkloadSpec spec, String clusterQueue, int priority, long seq, int[][] flavors,
      int[] counts, long reservedAtMs, boolean admitted) {
    Workload w = workloads.assumeAdmitted(spec, clusterQueue, priority, seq, null, flavors, counts, reservedAtMs);
    if (admitted && !w.checks.isEmpty()) {
      w.checks.replaceAll((check, state) -> CheckState.READY);
      AdmissionChecks.markAdmitted(w, reservedAtMs);
    }
    return w;
  }

  /** A workload pending after an eviction before the run (an imported cluster's live state). */
  public Workload restoreEvicted(WorkloadSpec spec, String clusterQueue, int priority, long seq, Eviction eviction) {
    return workloads.restoreEvicted(spec, clusterQueue, priority, seq, eviction);
  }

  /** The host hears a restored reservation as one made in a cycle: admitted, or waiting for its checks. */
  public void restored(Workload w) {
    if (w.checks.containsValue(CheckState.PENDING)) {
      host.onQuotaReserved(w); // its checks' controllers start from the snapshot
    } else {
      host.onAdmitted(w);
    }
  }

  /** The admission checks of a workload's current reservation. */
  public List<String> checkNames(Workload w) {
    return admissionChecks.checkNames(w);
  }

  /**
   * An admission check controller's verdict (Kueue AdmissionCheckState). Ready on every check admits the
   * workload; Retry evicts it (reason AdmissionCheck) and requeues it after {@code requeueAfterMs};
   * Rejected evicts and deactivates it. Verdicts for a workload that no longer holds that reservation are
   * ignored.
   */
  public void setCheckState(Workload w, String check, CheckState state, long requeueAfterMs, String message) {
    admissionChecks.setCheckState(w, check, state, requeueAfterMs, message);
  }

  /** All pods are up: PodsReady=True and the workload runs. */
  public void markRunning(Workload w) {
    workloads.markRunning(w);
  }

  /** Running since {@code sinceMs}, before now: a workload whose pods already ran when the run started. */
  public void markRunning(Workload w, long sinceMs) {
    workloads.markRunning(w, sinceMs);
  }

  /** The workload completed: release its quota and retry parked workloads in its cohort tree. */
  public void finish(Workload w) {
    workloads.finish(w);
  }

  /**
   * The evicted workload's pods are gone: Kueue's job reconciler clears the reservation, sets Requeued and
   * the workload is queued again (it keeps its creation-time position).
   */
  public void evictionComplete(Workload w) {
    workloads.evictionComplete(w);
  }

  /** The requeuing backoff ended: Requeued=True (BackoffFinished) and the workload competes again. */
  public void backoffFinished(Workload w) {
    workloads.backoffFinished(w);
  }

  /** A pod of a running workload failed: PodsReady=False until replacements run (waitForPodsReady recovery). */
  public void podsNotReady(Workload w) {
    workloads.podsNotReady(w);
  }

  /** waitForPodsReady: the workload's pods were not ready in time; evict it with PodsReadyTimeout. */
  public void podsReadyTimeout(Workload w) {
    workloads.podsReadyTimeout(w);
  }

  /** The owner deleted the workload: it leaves its queue, or releases its quota. */
  public void delete(Workload w) {
    workloads.delete(w);
  }

  /** A user's or owner's changes to one workload mid-run (finish, delete, spec.active, priority, queue). */
  public WorkloadEdits edits() {
    return edits;
  }

  // ------------------------------------------------------------------ queue changes

  /** The timeline's changes to queues and quota objects. */
  public QueueChanges queues() {
    return queueChanges;
  }

  /** Kueue's controller manager restarted: in-memory queue state is rebuilt (see {@link ControllerRestart}). */
  public void restart() {
    new ControllerRestart(this).restart();
  }

  /** Moves the parked workloads of every notified tree back to their active heaps. */
  public int processInadmissibleRequeues() {
    return requeues.processInadmissibleRequeues();
  }

  // ------------------------------------------------------------------ topology aware scheduling

  /**
   * [TAS] Builds the topology trees of the TAS flavors (those with {@code topologyName}) from the Topology
   * objects and the cluster's nodes, all Ready. Call once, before the first cycle.
   */
  public void configureTopologies(List<TopologySpec> topologies, List<TasNode> nodes) {
    tas.configure(topologies, nodes);
    queueObjects.topologiesDeclared(topologies);
  }

  /**
   * [TAS] Kueue's DelayedTopologyRequest of a podSet of a workload holding quota: "Pending" (placement waits
   * for the ProvisioningRequest check), "Ready" (placed since), or null (never delayed).
   */
  public String delayedTopologyRequest(Workload w, int podSet) {
    return tas.admissions.delayedTopologyRequest(w, podSet);
  }

  /** [TAS] Whether any flavor is a TAS flavor. */
  public boolean tasEnabled() {
    return tas.enabled();
  }

  /** [TAS] A node changed in a way that matters for scheduling: parked workloads of active queues retry. */
  public void tasNodeChanged(TasNode node) {
    tas.nodeChanged(node);
  }

  /** [TAS] A node joined the cluster (Ready): it joins the trees of the TAS flavors it matches. */
  public void nodeAdded(TasNode node) {
    tas.addNode(node, true);
  }

  /**
   * [TAS] A node failed (NotReady with its pods terminated, deleted or drained): it leaves the TAS trees,
   * and every TAS workload with pods assigned there that holds quota and is not evicted marks it as its
   * unhealthy node and goes to the second-pass queue (first attempt after 1 s), where only the failed
   * node's pods are placed again, within the required domain and without preemption. A workload that
   * already has another unhealthy node is evicted at once (reason NodeFailures); one whose replacement
   * search fails is evicted too (TASFailedNodeReplacementFailFast).
   */
  public void nodeFailed(String node) {
    tas.secondPass.nodeFailed(node);
  }

  /** [TAS] The node is Ready again: it rejoins the trees; workloads not yet repaired forget it as unhealthy. */
  public void nodeRecovered(String node) {
    tas.secondPass.nodeRecovered(node);
  }

  /** [TAS] A node's labels or taints changed (Kueue's TAS cache syncs the node; the filters see them). */
  public void nodeUpdated(TasNode node) {
    tas.updateNode(node);
  }

  /**
   * [TAS] A node that stays went NotReady or had its taints changed: its TAS workloads with no pod running
   * there ({@code running}: owners of pods bound there) are unhealthy if it is NotReady or untolerated.
   */
  public void nodeConditionsChanged(String node, boolean ready, java.util.Set<?> running) {
    tas.secondPass.reconcileNode(node, ready, running);
  }

  /** [TAS] Cordon (false) or uncordon (true): Kueue keeps unschedulable nodes out of the TAS trees. */
  public void nodeSchedulable(String node, boolean schedulable) {
    tas.setNodePresent(node, schedulable);
  }

  /**
   * [TAS] A pod that does not follow a topology assignment was bound to (+1) or released from (-1) a node:
   * Kueue's non-TAS usage, which reduces the free capacity of the TAS trees containing the node. (Pods placed
   * by a topology assignment are counted through the assignment; do not report them.)
   */
  public void podOnNode(Workload owner, String node, long[] request, int sign) {
    tas.nonTasPod(owner, node, request, sign);
  }

  /** [TAS] Whether the workload holds a topology assignment (its pods go to the assigned nodes). */
  public boolean hasTopologyAssignment(Workload w) {
    return tas.admissions.hasAssignment(w);
  }

  /** [TAS] The workload's topology assignment: per podSet, per leaf domain, its nodes and pod count. */
  public List<TasPlacement> topologyPlacement(Workload w) {
    return tas.admissions.placement(w);
  }

  /** [TAS] The workload's unhealthy node awaiting replacement, or null. */
  public String unhealthyNode(Workload w) {
    return tas.admissions.unhealthyNode(w);
  }

  /** [TAS] The trees of the TAS flavors, in flavor-name order (metrics). */
  public List<TasFlavorSnapshot> topologySnapshots() {
    return tas.snapshots();
  }

  /** [TAS] Unhealthy nodes replaced by a second pass so far. */
  public int nodeRepairs() {
    return tas.secondPass.repairs;
  }

  /** [TAS] Evictions with reason NodeFailures so far (second failed node, or no replacement). */
  public int nodeFailureEvictions() {
    return tas.secondPass.nodeFailureEvictions;
  }

  // ------------------------------------------------------------------ cycle

  /** Runs one scheduling cycle. Returns what it did, so the caller can decide whether to run another. */
  public Scheduler.CycleOutcome runCycle() {
    return scheduler.schedule();
  }

  // ------------------------------------------------------------------ inspection

  public List<String> clusterQueueNames() {
    return new ArrayList<>(tree.queuesByName.keySet());
  }

  public boolean hasClusterQueue(String name) {
    return tree.queuesByName.containsKey(name);
  }

  /** Workloads holding quota, per ClusterQueue in declaration order. */
  public List<Workload> reservedWorkloads() {
    List<Workload> out = new ArrayList<>();
    for (ClusterQueue q : tree.queues) {
      out.addAll(q.admitted);
    }
    return out;
  }

  public List<Workload> activePending(String cq) {
    return tree.queuesByName.get(cq).pending.activeInOrder();
  }

  /** Every pending workload of the ClusterQueue, unordered, and whether it is in the active heap (for counts). */
  public void forEachPending(String cq, java.util.function.BiConsumer<Workload, Boolean> visit) {
    tree.queuesByName.get(cq).pending.forEach(visit);
  }

  public List<Workload> inadmissiblePending(String cq) {
    return tree.queuesByName.get(cq).pending.parkedInOrder();
  }

  public int pendingCount(String cq) {
    return tree.queuesByName.get(cq).pendingCount();
  }

  /** Current usage of a ClusterQueue on a flavor/resource, base units. */
  public long usage(String cq, int flavor, int resource) {
    return tree.queuesByName.get(cq).usage[index.fr(flavor, resource)];
  }

  /**
   * Kueue's weighted dominant resource share of a ClusterQueue (borrowed per 1000 of what its cohort could
   * lend, over the weight); 0 outside a cohort or when not borrowing. Infinite for a zero weight that borrows.
   */
  public double share(String cq) {
    return Drs.of(tree.queuesByName.get(cq), null, index).weightedShare();
  }

  /** Whether the ClusterQueue can admit (Kueue's Active condition); false when stopped or deleted. */
  public boolean clusterQueueActive(String cq) {
    return tree.queuesByName.get(cq).active;
  }

  /** Kueue's Active condition of a ClusterQueue now: {reason, message} (Ready when active). */
  public String[] clusterQueueActiveCondition(String cq) {
    return tree.queuesByName.get(cq).activeCondition();
  }

  /** The ResourceFlavor's spec as last created or updated. */
  public ResourceFlavorSpec flavorSpec(int flavor) {
    return flavorSpecs.get(flavor);
  }

  /** The ClusterQueue's spec as last created or updated. */
  public ClusterQueueSpec clusterQueueSpec(String cq) {
    return tree.queuesByName.get(cq).spec;
  }

  /** Whether the ClusterQueue exists (created and not yet gone after a deletion). */
  public boolean clusterQueueExists(String cq) {
    return !tree.queuesByName.get(cq).gone;
  }

  /** Whether the LocalQueue exists (declared or created, and not deleted). */
  public boolean localQueueExists(String lq) {
    return queueLifecycle.localQueueExists(lq);
  }

  /** Whether the ClusterQueue was deleted (Kueue: terminating). */
  public boolean clusterQueueDeleted(String cq) {
    return tree.queuesByName.get(cq).deleted;
  }

  /** Kueue's weighted share of a cohort, as {@link #share} for a ClusterQueue. */
  public double cohortShare(String cohort) {
    return Drs.of(tree.cohorts.get(cohort), null, index).weightedShare();
  }

  /** Whether Kueue's fair sharing is on (ClusterQueues and cohorts then report their weighted share). */
  public boolean fairSharing() {
    return config.fairSharing();
  }

  public long nominal(String cq, int flavor, int resource) {
    return tree.queuesByName.get(cq).nominal[index.fr(flavor, resource)];
  }

  /** Usage of the cohort named, base units (for invariant checks). */
  public long cohortUsage(String cohort, int fr) {
    return tree.cohorts.get(cohort).usage[fr];
  }

  /** A Cohort object, or an implicit cohort still named (Kueue's hierarchy drops one with no children). */
  public boolean cohortExists(String cohort) {
    Cohort c = tree.cohorts.get(cohort);
    return tree.cohortSpecs.containsKey(cohort) || !c.childQueues.isEmpty() || !c.childCohorts.isEmpty();
  }

  /** The cohort's parent as the tree is linked now, or null for a root. */
  public String cohortParent(String cohort) {
    Cohort p = tree.cohorts.get(cohort).parent;
    return p == null ? null : p.name;
  }

  public List<String> cohortNames() {
    return Collections.unmodifiableList(new ArrayList<>(tree.cohorts.keySet()));
  }

  /**
   * Kueue's admission_cycle_preemption_skips for the last cycle: per ClusterQueue, entries that needed
   * preemption but were skipped because another entry took the quota or the targets first (none: absent).
   */
  public Map<String, Integer> skippedPreemptions() {
    return Collections.unmodifiableMap(skippedPreemptions);
  }

  /** Keeps every workload's condition changes (the decision log behind {@code batchsim explain}). */
  public void keepHistory(boolean on) {
    workloads.keepHistory = on;
  }

  /** Records Kueue events ("workload reason type") for conformance checks. */
  public void recordEvents(boolean on) {
    recorder.recordEvents(on);
  }

  public List<String> events() {
    return recorder.events();
  }

  /** Why workloads waited until {@code end}, per queue in {@code order} (quota holders are the host's). */
  public batchsim.core.metrics.WaitingStats waitingStats(long end, List<String> order, int maxBuckets) {
    return waiting.report(end, order, maxBuckets);
  }

  /** The checks a checked run makes after every event. */
  public EngineChecks checks() {
    return checks;
  }
}
