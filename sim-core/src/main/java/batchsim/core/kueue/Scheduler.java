package batchsim.core.kueue;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionPolicy;
import java.util.ArrayList;
import java.util.Comparator;
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
 * cycle, as in Kueue's snapshot, and is removed at the end.
 */
public final class Scheduler {
  private final KueueEngine engine;

  Scheduler(KueueEngine engine) {
    this.engine = engine;
  }

  /** What one cycle did. {@code changed} is false when another cycle now would do exactly the same. */
  public record CycleOutcome(int heads, int admitted, int preempted, boolean changed) {}

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

  CycleOutcome schedule() {
    engine.cycle++;
    engine.skippedPreemptions.clear();
    List<Workload> heads = new ArrayList<>();
    // [TAS] Kueue heads(): every ready second-pass workload, in addition to one head per ClusterQueue.
    List<Workload> secondPass = engine.tas.secondPass.takeReadySecondPass();
    for (ClusterQueue q : engine.tree.queues) {
      if (q.active && q.hasPending()) {
        heads.add(q.pop());
      }
    }
    if (heads.isEmpty() && secondPass.isEmpty()) {
      return new CycleOutcome(0, 0, 0, false);
    }
    List<Entry> entries = new ArrayList<>();
    List<Entry> inadmissible = new ArrayList<>();
    for (Workload h : secondPass) {
      Entry e = new Entry(h);
      e.secondPass = true;
      nominate(e);
      (e.assignment == null ? inadmissible : entries).add(e);
    }
    for (Workload h : heads) {
      Entry e = new Entry(h);
      nominate(e);
      (e.assignment == null ? inadmissible : entries).add(e);
    }
    Map<Workload, Target> victims = new LinkedHashMap<>();
    List<Object[]> cycleUsage = new ArrayList<>();
    int admitted = 0;
    int preempted = 0;
    List<Entry> order = engine.config.fairSharing() ? new ArrayList<>(entries) : classicalOrder(entries);
    while (!order.isEmpty()) {
      Entry e = engine.config.fairSharing() ? popFairSharing(order) : order.remove(0);
      process(e, victims, cycleUsage);
      admitted += e.status == Status.ASSUMED ? 1 : 0;
      preempted += e.newEvictions;
    }
    for (Object[] cu : cycleUsage) {
      ((ClusterQueue) cu[0]).removeUsage((FrAmounts) cu[1]);
      engine.tas.admissions.apply((TasAdmissions.Usage) cu[2], -1); // [TAS] capacity held for the cycle only
    }
    boolean changed = admitted > 0 || preempted > 0;
    for (Entry e : entries) {
      if (e.status != Status.ASSUMED && e.status != Status.EVICTED) {
        changed |= requeue(e);
      }
    }
    for (Entry e : inadmissible) {
      changed |= requeue(e);
    }
    return new CycleOutcome(heads.size() + secondPass.size(), admitted, preempted, changed);
  }

  // ------------------------------------------------------------------ nominate

  private void nominate(Entry e) {
    if (!e.cq.active) {
      e.reason = "Suspended";
      e.message = "ClusterQueue " + e.cq.name + " is inactive";
      return;
    }
    computeAssignment(e);
  }

  /** Kueue getAssignments: the initial assignment, then updateAssignmentForTAS. */
  private void computeAssignment(Entry e) {
    if (e.secondPass) {
      // [TAS] Flavors and quota stay; only the unhealthy node's pods are placed again.
      e.assignment = engine.tas.secondPass.secondPassAssignment(e.w);
      e.targets = List.of();
      return;
    }
    computeInitialAssignment(e);
    engine.tas.flavors.updateForPreemption(e.w, e.cq, e.assignment, e.targets);
  }

  /** Kueue getInitialAssignments. */
  private void computeInitialAssignment(Entry e) {
    Workload w = e.w;
    if (w.lastAssignment != null && w.lastAssignment.outdated(e.cq.generation, engine.cycle)) {
      w.lastAssignment = null;
    }
    Assignment full = engine.assigner.assign(w, e.cq, null);
    e.assignment = full;
    e.targets = List.of();
    AssignmentMode mode = full.representativeMode();
    if (mode == AssignmentMode.FIT) {
      return;
    }
    if (mode == AssignmentMode.PREEMPT) {
      List<Target> t = engine.preemptor.getTargets(w, e.cq, full.frsNeedingPreemption(engine.index), full.usage(),
          full);
      if (!t.isEmpty()) {
        e.targets = t;
        return;
      }
    }
    if (engine.config.partialAdmission() && canBePartiallyAdmitted(w)) {
      Entry partial = searchPartial(e);
      if (partial != null) {
        e.assignment = partial.assignment;
        e.targets = partial.targets;
      }
    }
  }

  private static boolean canBePartiallyAdmitted(Workload w) {
    for (PodSetSpec ps : w.spec.podSets()) {
      if (ps.hasMinCount()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Kueue PodSetReducer.Search: binary search over the total reduction between count and minCount for the
   * smallest reduction that fits (or preempts with targets).
   */
  private Entry searchPartial(Entry e) {
    List<PodSetSpec> ps = e.w.spec.podSets();
    int n = ps.size();
    int[] full = new int[n];
    int[] delta = new int[n];
    int total = 0;
    for (int i = 0; i < n; i++) {
      full[i] = ps.get(i).count();
      delta[i] = ps.get(i).hasMinCount() ? full[i] - ps.get(i).minCount() : 0;
      total += delta[i];
    }
    if (total == 0) {
      return null;
    }
    int lo = 0;
    int hi = total + 1;
    Entry lastGood = null;
    int lastGoodIdx = -1;
    // sort.Search: smallest i in [0, total] for which fits(i) is true.
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int[] counts = new int[n];
      for (int i = 0; i < n; i++) {
        counts[i] = full[i] - (int) ((long) delta[i] * mid / total);
      }
      Entry attempt = new Entry(e.w);
      attempt.assignment = engine.assigner.assign(e.w, e.cq, counts);
      boolean fits = false;
      AssignmentMode m = attempt.assignment.representativeMode();
      if (m == AssignmentMode.FIT) {
        fits = true;
      } else if (m == AssignmentMode.PREEMPT) {
        attempt.targets = engine.preemptor.getTargets(e.w, e.cq,
            attempt.assignment.frsNeedingPreemption(engine.index), attempt.assignment.usage(), attempt.assignment);
        fits = !attempt.targets.isEmpty();
      }
      if (fits) {
        lastGood = attempt;
        lastGoodIdx = mid;
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo == lastGoodIdx ? lastGood : null;
  }

  // ------------------------------------------------------------------ ordering

  /** Kueue's classical iterator: lower borrowing height, higher priority, earlier queue timestamp. */
  List<Entry> classicalOrder(List<Entry> entries) {
    List<Entry> sorted = new ArrayList<>(entries);
    Comparator<Entry> c = Comparator.comparingInt(e -> e.assignment.borrowing);
    if (engine.config.prioritySortingWithinCohort()) {
      c = c.thenComparing(Comparator.comparingInt((Entry e) -> e.w.priority).reversed());
    }
    c = c.thenComparingLong(e -> engine.workloads.queueOrderTimestamp(e.w));
    sorted.sort(c);
    return sorted;
  }

  /** Kueue's fair-sharing iterator: a tournament of dominant resource shares from the root cohort. */
  private Entry popFairSharing(List<Entry> remaining) {
    Entry first = remaining.get(0);
    if (!first.cq.hasParent()) {
      remaining.remove(0);
      return first;
    }
    Cohort root = first.cq.root();
    Map<ClusterQueue, Entry> byCq = new LinkedHashMap<>();
    for (Entry e : remaining) {
      byCq.put(e.cq, e);
    }
    Map<String, Drs> drs = new java.util.HashMap<>();
    for (ClusterQueue q : root.subtreeQueues()) {
      Entry e = byCq.get(q);
      if (e == null) {
        continue;
      }
      FrAmounts usage = e.assignment.usage();
      q.addUsage(usage);
      Drs d = Drs.of(q, null, engine.index);
      for (Cohort a = q.parent; a != null; a = a.parent) {
        drs.put(a.name + "\0" + e.w.id(), d);
        d = Drs.of(a, null, engine.index);
      }
      q.removeUsage(usage);
    }
    Entry winner = tournament(root, byCq, drs);
    remaining.remove(winner);
    return winner;
  }

  private Entry tournament(Cohort cohort, Map<ClusterQueue, Entry> byCq, Map<String, Drs> drs) {
    List<Entry> candidates = new ArrayList<>();
    for (Cohort c : cohort.childCohorts) {
      Entry e = tournament(c, byCq, drs);
      if (e != null) {
        candidates.add(e);
      }
    }
    for (ClusterQueue q : cohort.childQueues) {
      Entry e = byCq.get(q);
      if (e != null) {
        candidates.add(e);
      }
    }
    if (candidates.isEmpty()) {
      return null;
    }
    Entry best = candidates.get(0);
    for (Entry cur : candidates.subList(1, candidates.size())) {
      if (fairLess(cur, best, cohort.name, drs)) {
        best = cur;
      }
    }
    return best;
  }

  private boolean fairLess(Entry a, Entry b, String cohort, Map<String, Drs> drs) {
    Drs da = drs.get(cohort + "\0" + a.w.id());
    Drs db = drs.get(cohort + "\0" + b.w.id());
    boolean ba = da.borrowingOn(a.assignment.usage());
    boolean bb = db.borrowingOn(b.assignment.usage());
    if (ba != bb) {
      return !ba; // FairSharingPrioritizeNonBorrowing
    }
    int c = Drs.compare(da, db);
    if (c != 0) {
      return c < 0;
    }
    if (engine.config.prioritySortingWithinCohort() && a.w.priority != b.w.priority) {
      return a.w.priority > b.w.priority;
    }
    return engine.workloads.queueOrderTimestamp(a.w) < engine.workloads.queueOrderTimestamp(b.w);
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
      computeAssignment(e);
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
      computeAssignment(e);
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
      if (cq.reclaimWithinCohort() != PreemptionPolicy.ANY) {
        // Kueue reserveCapacityForUnreclaimablePreempt: later entries must not take what this one waits for.
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
      issuePreemptions(e);
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
  private FitsCheck fits(ClusterQueue cq, FrAmounts usage, TasAdmissions.Usage tas, Set<Workload> victims, List<Target> own) {
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

  private void issuePreemptions(Entry e) {
    for (Target t : e.targets) {
      Workload v = t.workload();
      if (v.isEvicted()) {
        continue; // already being evicted: counts as preempted without a new patch
      }
      e.newEvictions++;
      String msg = "Preempted to accommodate a workload (UID: " + e.w.id() + ") due to "
          + humanReason(t.reason()) + "; preemptor path: " + path(e.cq) + "; preemptee path: " + path(v.cq);
      engine.workloads.evict(v, "Preempted", t.reason(), msg);
      engine.recorder.event(e.w, "PreemptedWorkload", "Normal"); // Kueue IssuePreemptions, on the preemptor
    }
  }

  private static String humanReason(String reason) {
    switch (reason) {
      case "InClusterQueue": return "prioritization in the ClusterQueue";
      case "InCohortReclamation": return "reclamation within the cohort";
      case "InCohortFairSharing": return "Fair Sharing within the cohort";
      case "InCohortReclaimWhileBorrowing": return "reclamation within the cohort while borrowing";
      default: return "UNKNOWN";
    }
  }

  static String path(ClusterQueue q) {
    StringBuilder sb = new StringBuilder();
    List<String> parts = new ArrayList<>();
    parts.add(q.name);
    for (Cohort c = q.parent; c != null; c = c.parent) {
      parts.add(c.name);
    }
    for (int i = parts.size() - 1; i >= 0; i--) {
      sb.append('/').append(parts.get(i));
    }
    return sb.toString();
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
      boolean delayed = engine.tas.secondPass.admitSecondPass(e.w, a);
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
    engine.admissionChecks.afterReservation(e.w);
  }

  // ------------------------------------------------------------------ requeue

  /** Kueue requeueAndUpdate + ClusterQueue.requeueIfNotPresent. Returns true if the head left the heap. */
  private boolean requeue(Entry e) {
    Workload w = e.w;
    ClusterQueue q = e.cq;
    if (e.secondPass) {
      // [TAS] Kueue QueueSecondPassIfNeeded: back to the second-pass queue with the next backoff.
      if (engine.tas.secondPass.requeueSecondPass(w)) {
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
    boolean toHeap = w.inHeap;
    boolean pendingFlavors = w.lastAssignment != null && w.lastAssignment.pendingFlavors();
    String reason = e.reason.isEmpty() ? "Pending" : e.reason;
    w.pendingReason = reason;
    w.pendingMessage = e.message;
    if (!toHeap && (e.requeueReason == RequeueReason.NO_FIT
        || e.requeueReason == RequeueReason.PREEMPTION_NO_CANDIDATES)) {
      for (Workload m : q.parkEquivalent(w, reason, e.message)) {
        engine.stateCheck.touch(m);
      }
    }
    w.setCondition(ConditionType.QUOTA_RESERVED, false, reason, e.message, engine.now());
    // Kueue requeueAndUpdate also records a Warning event with the condition's reason.
    engine.recorder.event(w, reason, "Warning");
    // A head parked as inadmissible, or one whose flavor scan will resume elsewhere, changes the next cycle.
    return !toHeap || pendingFlavors;
  }
}
