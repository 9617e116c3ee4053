package batchsim.core.kueue;

import batchsim.core.model.PreemptionPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Kueue's scheduling cycle. Port of {@code pkg/scheduler/scheduler.go} @ ff69552e ({@code schedule},
 * {@code nominate}, {@code processEntry}, {@code requeueAndUpdate}):
 *
 * <ol>
 *   <li>take one head from every active ClusterQueue;
 *   <li>nominate each head against the state at cycle start: flavor assignment, and preemption targets
 *       when the assignment needs preemption (partial admission shrinks the counts if that helps);
 *   <li>order the entries (classical: borrowing height, priority, timestamp; or the fair-sharing
 *       tournament) and process them one by one, each seeing the usage of those before it;
 *   <li>admit the entries that still fit, issue preemptions for the others that have targets, and requeue
 *       the rest with Kueue's reason, which decides between the active heap and the inadmissible set.
 * </ol>
 *
 * Usage added for entries that are not admitted (preemptors, capacity reservations) lives only for the
 * cycle, as in Kueue's snapshot, and is removed at the end. Nomination is {@link Nominator}'s, the entry
 * order {@link EntryOrdering}'s, and finding and evicting victims the {@link Preemptor}'s.
 */
public final class Scheduler {
  private final KueueEngine engine;
  final Nominator nominator;
  final EntryOrdering ordering;
  /**
   * waitForPodsReady.blockAdmission: Kueue's scheduler goroutine waits in waitForPodsReadyIfNeeded until every
   * workload holding quota is PodsReady; no cycle runs meanwhile. batchsim then evaluates the blocked head again
   * in a fresh cycle instead of admitting its stale assignment.
   */
  private boolean blockedOnPodsReady;

  Scheduler(KueueEngine engine) {
    this.engine = engine;
    this.nominator = new Nominator(engine);
    this.ordering = new EntryOrdering(engine);
  }

  /**
   * What one cycle did: heads nominated, admitted, victims preempted, candidates its preemption searches
   * visited, pending heads whose status it wrote. {@code changed} is false when another cycle now would do
   * exactly the same.
   */
  public record CycleOutcome(int heads, int admitted, int preempted, boolean changed, long candidates,
      int statusWrites) {}

  enum Status { NOT_NOMINATED, NOMINATED, SKIPPED, ASSUMED, EVICTED }

  /** Kueue FitsCheck: fits, fails on quota, or fits quota but not the topology. */
  enum FitsCheck { OK, NO_QUOTA, NO_TAS }

  static final class Entry {
    final Workload w;
    final ClusterQueue cq;
    Assignment assignment;
    List<Target> targets = List.of();
    Status status = Status.NOT_NOMINATED;
    RequeueReason requeueReason = RequeueReason.GENERIC;
    String reason = "";
    String message = "";
    int newEvictions;
    /** [TAS] A second pass: the workload holds quota and only needs its unhealthy node replaced. */
    boolean secondPass;

    Entry(Workload w) {
      this.w = w;
      this.cq = w.cq;
    }
  }

  /** [elastic] Workload slices: a replacement is nominated and admitted with the old slice's quota as its own. */
  private WorkloadSlices slices() {
    return engine.edits.slices();
  }

  /** Pending heads whose QuotaReserved=False condition this cycle changed. */
  private int statusWrites;

  CycleOutcome schedule() {
    if (blockedOnPodsReady && engine.workloads.admissionBlockedByPodsReady()) {
      return new CycleOutcome(0, 0, 0, false, 0, 0);
    }
    blockedOnPodsReady = false;
    engine.cycle++;
    engine.skippedPreemptions.clear();
    long candidatesBefore = engine.preemptor.candidatesVisited;
    statusWrites = 0;
    List<Workload> heads = new ArrayList<>();
    // [TAS] Kueue heads(): every ready second-pass workload, in addition to one head per ClusterQueue.
    List<Workload> secondPass = engine.tas.secondPass.takeReady();
    for (ClusterQueue q : engine.tree.queues) {
      if (q.active && q.hasPending()) {
        heads.add(q.pop());
      }
    }
    if (heads.isEmpty() && secondPass.isEmpty()) {
      return new CycleOutcome(0, 0, 0, false, 0, 0);
    }
    List<Entry> entries = new ArrayList<>();
    List<Entry> inadmissible = new ArrayList<>();
    for (Workload h : secondPass) {
      Entry e = new Entry(h);
      e.secondPass = true;
      nominator.nominate(e);
      (e.assignment == null ? inadmissible : entries).add(e);
    }
    for (Workload h : heads) {
      Entry e = new Entry(h);
      slices().nominate(h, () -> nominator.nominate(e)); // [elastic] a replacement slice counts the old one's quota
      (e.assignment == null ? inadmissible : entries).add(e);
    }
    Map<Workload, Target> victims = new LinkedHashMap<>();
    List<Object[]> cycleUsage = new ArrayList<>();
    int admitted = 0;
    int preempted = 0;
    List<Entry> order = engine.config.fairSharing() ? new ArrayList<>(entries) : ordering.classicalOrder(entries);
    while (!order.isEmpty() && !blockedOnPodsReady) {
      Entry e = engine.config.fairSharing() ? ordering.popFairSharing(order) : order.remove(0);
      Workload replaced = slices().beforeProcess(e.w);
      int held = cycleUsage.size();
      process(e, victims, cycleUsage);
      slices().afterProcess(e.w, replaced, e.status == Status.ASSUMED, cycleUsage.size() > held);
      admitted += e.status == Status.ASSUMED ? 1 : 0;
      preempted += e.newEvictions;
    }
    for (Object[] cu : cycleUsage) {
      ((ClusterQueue) cu[0]).removeUsage((FrAmounts) cu[1]);
      engine.tas.admissions.apply((TasAdmissions.Usage) cu[2], -1); // [TAS] capacity held for the cycle only
    }
    slices().cycleEnded();
    boolean changed = admitted > 0 || preempted > 0;
    for (Entry e : order) { // blocked before their turn: back to the heap as they were
      e.cq.requeueIfNotPresent(e.w, RequeueReason.FAILED_AFTER_NOMINATION, engine.now());
      engine.stateCheck.touch(e.w);
    }
    entries.removeAll(order);
    for (Entry e : entries) {
      if (e.status != Status.ASSUMED && e.status != Status.EVICTED) {
        changed |= requeue(e);
      }
    }
    for (Entry e : inadmissible) {
      changed |= requeue(e);
    }
    return new CycleOutcome(heads.size() + secondPass.size(), admitted, preempted, changed,
        engine.preemptor.candidatesVisited - candidatesBefore, statusWrites);
  }

  // ------------------------------------------------------------------ process

  private void process(Entry e, Map<Workload, Target> victims, List<Object[]> cycleUsage) {
    ClusterQueue cq = e.cq;
    FrAmounts usage = e.assignment.usage();
    TasAdmissions.Usage tasUsage = engine.tas.admissions.netUsage(e.w, e.assignment);
    FitsCheck fitsCheck = fits(cq, usage, tasUsage, victims.keySet(), e.targets);
    if (overlaps(victims, e.targets)) {
      // RecomputeAssignmentUponPreemptionTargetsOverlap: assume the other victims are gone and retry.
      List<Workload> others = new ArrayList<>(victims.keySet());
      for (Workload v : others) {
        engine.workloads.removeUsage(v);
      }
      e.w.lastAssignment = null;
      nominator.computeAssignment(e);
      for (Workload v : others) {
        engine.workloads.addUsage(v);
      }
      if (e.assignment.representativeMode() == AssignmentMode.FIT) {
        e.assignment.setRepresentativeMode(AssignmentMode.DEFERRED_FIT);
      }
      usage = e.assignment.usage();
      tasUsage = engine.tas.admissions.netUsage(e.w, e.assignment);
      fitsCheck = fits(cq, usage, tasUsage, victims.keySet(), e.targets);
    } else if (fitsCheck == FitsCheck.NO_TAS) {
      // [TAS] TASRecomputeAssignmentWithinSchedulingCycle: an earlier entry took the chosen domains; place
      // again on what is left, keeping the nominated flavors so that the quota decisions stay valid.
      e.w.lastAssignment = null;
      engine.assigner.sticky = nominatedFlavors(e.assignment);
      nominator.computeAssignment(e);
      engine.assigner.sticky = null;
      usage = e.assignment.usage();
      tasUsage = engine.tas.admissions.netUsage(e.w, e.assignment);
      fitsCheck = fits(cq, usage, tasUsage, victims.keySet(), e.targets);
    }
    boolean fits = fitsCheck == FitsCheck.OK;
    AssignmentMode mode = e.assignment.representativeMode();
    e.message = e.assignment.message();
    if (e.secondPass && mode != AssignmentMode.FIT && engine.tas.admissions.unhealthyNode(e.w) != null) {
      // [TAS] Kueue handleFailedTASReplacement (TASFailedNodeReplacementFailFast): no replacement, evict.
      engine.tas.secondPass.evictFailedReplacement(e.w);
      e.status = Status.EVICTED;
      return;
    }
    if (mode == AssignmentMode.NO_FIT) {
      e.requeueReason = RequeueReason.NO_FIT;
      e.reason = e.assignment.noFitReason;
      return;
    }
    if (mode == AssignmentMode.PREEMPT && e.targets.isEmpty()) {
      e.requeueReason = RequeueReason.PREEMPTION_NO_CANDIDATES;
      e.reason = "WaitingForQuota";
      if (cq.reclaimWithinCohort() != PreemptionPolicy.ANY
          || (engine.config.prioritizePreemptorWorkloads() && cq.isPreemptor(e.w))) {
        // Kueue reserveCapacityForUnreclaimablePreempt: later entries must not take what this one waits for
        // (always, for a preemptor waiting for its victims under PrioritizePreemptorWorkloads).
        FrAmounts reserve = capacityToReserve(e, cq);
        cq.addUsage(reserve);
        engine.tas.admissions.apply(tasUsage, +1); // [TAS] and the domains it would take on an empty cluster
        cycleUsage.add(new Object[] {cq, reserve, tasUsage});
      }
      return;
    }
    if (mode == AssignmentMode.DEFERRED_FIT) {
      e.message = "Workload has overlapping preemption targets with another workload, but will fit after these preemptions complete";
      e.reason = "WaitingForPreemptedWorkloads";
      e.requeueReason = RequeueReason.PENDING_PREEMPTION;
      e.w.lastAssignment = null;
      cq.addUsage(usage);
      engine.tas.admissions.apply(tasUsage, +1);
      cycleUsage.add(new Object[] {cq, usage, tasUsage});
      return;
    }
    if (overlaps(victims, e.targets)) {
      e.status = Status.SKIPPED;
      e.message = "Workload has overlapping preemption targets with another workload";
      e.reason = "WaitingForQuota";
      engine.skippedPreemptions.merge(cq.name, 1, Integer::sum);
      return;
    }
    if (!fits) {
      e.status = Status.SKIPPED;
      e.message = "Workload no longer fits after processing another workload";
      e.reason = "WaitingForQuota";
      if (mode == AssignmentMode.PREEMPT) {
        engine.skippedPreemptions.merge(cq.name, 1, Integer::sum);
      }
      return;
    }
    for (Target t : e.targets) {
      victims.put(t.workload(), t);
    }
    if (mode == AssignmentMode.PREEMPT) {
      cq.addUsage(usage);
      engine.tas.admissions.apply(tasUsage, +1);
      cycleUsage.add(new Object[] {cq, usage, tasUsage});
      e.reason = "WaitingForPreemptedWorkloads";
      e.requeueReason = RequeueReason.PENDING_PREEMPTION;
      e.status = Status.NOMINATED;
      e.newEvictions += engine.preemptor.issuePreemptions(e.w, e.cq, e.targets);
      // Kueue markPreemptionOutcome: every target counts, those already being evicted too.
      e.message += ". Pending the preemption of " + e.targets.size() + " workload(s)";
      return;
    }
    if (!e.secondPass && engine.workloads.admissionBlockedByPodsReady()) {
      // Kueue waitForPodsReadyIfNeeded (second passes are exempt).
      blockedOnPodsReady = true;
      e.reason = "WaitingForPodsReady";
      e.message = "waiting for all admitted workloads to be in PodsReady condition";
      e.requeueReason = RequeueReason.FAILED_AFTER_NOMINATION;
      return;
    }
    admit(e, usage);
  }

  private static boolean overlaps(Map<Workload, Target> victims, List<Target> targets) {
    for (Target t : targets) {
      if (victims.containsKey(t.workload())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Kueue fits(): does the usage fit once every victim chosen so far, and this entry's own, is gone? Quota
   * first, then [TAS] every assigned domain still holds its pods (ClusterQueueSnapshot.Fits).
   */
  private FitsCheck fits(ClusterQueue cq, FrAmounts usage, TasAdmissions.Usage tas, Set<Workload> victims,
      List<Target> own) {
    Set<Workload> all = new LinkedHashSet<>(victims);
    for (Target t : own) {
      all.add(t.workload());
    }
    for (Workload v : all) {
      engine.workloads.removeUsage(v);
    }
    FitsCheck r = FitsCheck.OK;
    for (int i = 0; i < usage.frs.length; i++) {
      if (Math.max(0, cq.available(usage.frs[i])) < usage.amounts[i]) {
        r = FitsCheck.NO_QUOTA;
        break;
      }
    }
    if (r == FitsCheck.OK && !tas.isEmpty() && !engine.tas.admissions.fits(tas)) {
      r = FitsCheck.NO_TAS;
    }
    for (Workload v : all) {
      engine.workloads.addUsage(v);
    }
    return r;
  }

  /** [TAS] Kueue readResourceToFlavorMapping: [podSet][resource] → the nominated flavor (-1 none). */
  private static int[][] nominatedFlavors(Assignment a) {
    int[][] out = new int[a.podSets.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.podSets.get(i).flavor.clone();
    }
    return out;
  }

  /** Kueue quotaResourcesToReserve for a Preempt entry with no candidates. */
  private FrAmounts capacityToReserve(Entry e, ClusterQueue cq) {
    TreeMap<Integer, Long> out = new TreeMap<>();
    FrAmounts usage = e.assignment.usage();
    for (int i = 0; i < usage.frs.length; i++) {
      int fr = usage.frs[i];
      long u = usage.amounts[i];
      long r;
      if (e.assignment.borrowing > 0) {
        r = cq.borrowingLimit[fr] == QuotaNode.NO_LIMIT ? u
            : Math.min(u, cq.nominal[fr] + cq.borrowingLimit[fr] - cq.usage[fr]);
      } else {
        r = Math.min(u, cq.nominal[fr] - cq.usage[fr]);
      }
      if (r > 0) {
        out.put(fr, r);
      }
    }
    return FrAmounts.of(out);
  }

  private void admit(Entry e, FrAmounts usage) {
    Assignment a = e.assignment;
    int nRes = engine.index.resources().size();
    int[][] flavors = new int[a.podSets.size()][];
    int[] counts = new int[a.podSets.size()];
    for (int i = 0; i < a.podSets.size(); i++) {
      flavors[i] = a.podSets.get(i).flavor.clone();
      counts[i] = a.podSets.get(i).count;
    }
    if (flavors.length == 0) {
      flavors = new int[0][nRes];
    }
    e.status = Status.ASSUMED;
    if (e.secondPass) {
      // [TAS] The replacement is admitted: the workload keeps its quota and takes the new domains.
      boolean delayed = engine.tas.secondPass.admit(e.w, a);
      engine.stateCheck.touch(e.w);
      if (delayed) {
        engine.admissionChecks.admit(e.w); // its checks were Ready: Admitted now
      } else {
        engine.host.onTopologyReassigned(e.w);
      }
      return;
    }
    engine.tas.admissions.admit(e.w, a); // [TAS] its domains are taken before its pods are bound
    engine.workloads.reserve(e.w, flavors, counts, usage, engine.now());
    if (engine.afs != null) {
      engine.afs.reserved(e.w);
      if (e.w.checks.isEmpty()) {
        engine.afs.admitted(e.w); // Admitted with the reservation
      }
    }
    engine.admissionChecks.afterReservation(e.w);
  }

  // ------------------------------------------------------------------ requeue

  /** Kueue requeueAndUpdate + ClusterQueue.requeueIfNotPresent. Returns true if the head left the heap. */
  private boolean requeue(Entry e) {
    Workload w = e.w;
    ClusterQueue q = e.cq;
    if (e.secondPass) {
      // [TAS] Kueue QueueSecondPassIfNeeded: back to the second-pass queue with the next backoff.
      if (engine.tas.secondPass.requeue(w)) {
        engine.recorder.event(w, "SecondPassFailed", "Warning");
      }
      return false;
    }
    if (e.assignment != null && e.requeueReason == RequeueReason.GENERIC) {
      e.requeueReason = RequeueReason.FAILED_AFTER_NOMINATION;
    }
    if (e.assignment != null) {
      // Kueue recordAssignment keeps the scan state; markPreemptionOutcome and DeferredFit clear it so that
      // the next cycle reconsiders every flavor.
      w.lastAssignment = e.requeueReason == RequeueReason.PENDING_PREEMPTION ? null : e.assignment.lastState;
    }
    q.requeueIfNotPresent(w, e.requeueReason, engine.now());
    engine.stateCheck.touch(w);
    boolean toHeap = w.inHeap();
    boolean pendingFlavors = w.lastAssignment != null && w.lastAssignment.pendingFlavors();
    String reason = e.reason.isEmpty() ? "Pending" : e.reason;
    w.setPending(reason, e.message);
    if (!toHeap && (e.requeueReason == RequeueReason.NO_FIT
        || e.requeueReason == RequeueReason.PREEMPTION_NO_CANDIDATES)) {
      q.parkEquivalent(w, reason, e.message, engine.stateCheck.listener());
    }
    if (w.setCondition(ConditionType.QUOTA_RESERVED, false, reason, e.message, engine.now())
        && (e.status == Status.NOT_NOMINATED || e.status == Status.SKIPPED)) {
      statusWrites++; // Kueue requeueAndUpdate patches the status only when the condition changed
    }
    // Kueue requeueAndUpdate also records a Warning event with the condition's reason.
    engine.recorder.event(w, reason, "Warning");
    // A head parked as inadmissible, or one whose flavor scan will resume elsewhere, changes the next cycle.
    return !toHeap || pendingFlavors;
  }
}