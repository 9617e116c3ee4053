package batchsim.core.kueue;

import batchsim.core.model.PreemptionPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds preemption victims, as Kueue's Preemptor.GetTargets does.
 *
 * <p>Port of {@code pkg/scheduler/preemption/{preemption.go, classical/*, common/*, fairsharing/*}} @
 * ff69552e. Classical mode collects same-queue, hierarchy and priority candidates, orders them (evicted
 * first, other queues first, lower priority, most recently reserved, UID), removes them one by one from
 * the quota tree until the preemptor fits, then adds back every victim that is not needed. Fair-sharing
 * mode picks target queues by dominant resource share and applies the configured strategies.
 * Candidates' usage is removed from and restored to the live quota tree (mutate and undo).
 *
 * <p>This class holds the entry points and what both modes share (policy, candidate ordering, the fits
 * check, fill-back); the modes are {@link ClassicalPreemption} and {@link FairSharingPreemption}.
 */
final class Preemptor {
  private final KueueEngine engine;
  private final ClassicalPreemption classical;
  private final FairSharingPreemption fairSharing;
  /** Candidates the preemption searches have visited so far (the controller pace's cycle cost reads it). */
  long candidatesVisited;

  Preemptor(KueueEngine engine) {
    this.engine = engine;
    this.classical = new ClassicalPreemption(engine, this);
    this.fairSharing = new FairSharingPreemption(engine, this);
  }

  record Possibility(PreemptionMode mode, int borrowAfter) {}

  /** Kueue PreemptionOracle.SimulatePreemption for one flavor-resource. */
  Possibility simulate(Workload w, ClusterQueue cq, int fr, long quantity) {
    FrAmounts usage = FrAmounts.single(fr, quantity);
    List<Target> targets = getTargets(w, cq, new int[] {fr}, usage);
    if (targets.isEmpty()) {
      return new Possibility(PreemptionMode.NO_CANDIDATES, FlavorAssigner.height(cq, fr, quantity).height());
    }
    for (Target t : targets) {
      t.workload().cq.removeUsage(t.workload().usage);
    }
    int borrow = FlavorAssigner.height(cq, fr, quantity).height();
    for (Target t : targets) {
      t.workload().cq.addUsage(t.workload().usage);
    }
    for (Target t : targets) {
      if (t.workload().cq == cq) {
        return new Possibility(PreemptionMode.PREEMPT, borrow);
      }
    }
    return new Possibility(PreemptionMode.RECLAIM, borrow);
  }

  List<Target> getTargets(Workload w, ClusterQueue cq, int[] frsNeedPreemption, FrAmounts usage) {
    return getTargets(w, cq, frsNeedPreemption, usage, null);
  }

  /**
   * Kueue Preemptor.GetTargets. With {@code assignment}, the preemptor's TAS podSets must also be placeable
   * once the candidates are gone (Kueue workloadFits reruns the whole TAS placement after each removal).
   */
  List<Target> getTargets(Workload w, ClusterQueue cq, int[] frsNeedPreemption, FrAmounts usage,
      Assignment assignment) {
    Ctx ctx = new Ctx(w, cq, frsNeedPreemption, usage, assignment);
    return engine.config.fairSharing() ? fairSharing.targets(ctx) : classical.targets(ctx);
  }

  /** {@code assignment}: [TAS] the preemptor's assignment whose TAS podSets must fit, or null (quota only). */
  record Ctx(Workload preemptor, ClusterQueue cq, int[] frs, FrAmounts usage, Assignment assignment) {}

  /** Kueue SatisfiesPreemptionPolicy. */
  boolean satisfiesPolicy(Workload preemptor, Workload candidate, PreemptionPolicy policy) {
    if (preemptor.replacementFor == candidate) {
      return false; // [elastic] Kueue FindReplacedSliceTarget: the replaced slice is finished, never preempted
    }
    boolean lower = preemptor.priority > candidate.priority;
    switch (policy) {
      case LOWER_PRIORITY:
        return lower;
      case LOWER_OR_NEWER_EQUAL_PRIORITY:
        return lower || (preemptor.priority == candidate.priority
            && engine.workloads.queueOrderTimestamp(preemptor) < engine.workloads.queueOrderTimestamp(candidate));
      case ANY:
        return true;
      default:
        return false;
    }
  }

  /**
   * Kueue CandidatesOrdering: evicted, other queues, (admission fair sharing) the LocalQueue with the higher
   * usage within one ClusterQueue, lower priority, most recently reserved, UID.
   */
  int candidatesOrdering(Workload a, Workload b, ClusterQueue cq) {
    boolean ea = a.isEvicted();
    boolean eb = b.isEvicted();
    if (ea != eb) {
      return ea ? -1 : 1;
    }
    boolean sa = a.cq == cq;
    boolean sb = b.cq == cq;
    if (sa != sb) {
      return sa ? 1 : -1;
    }
    if (engine.afs != null && a.cq == b.cq && a.cq.spec.usageBasedAdmissionFairSharing()
        && !a.spec.localQueue().equals(b.spec.localQueue())) {
      int u = Double.compare(engine.afs.usage(b.spec.localQueue()), engine.afs.usage(a.spec.localQueue()));
      if (u != 0) {
        return u;
      }
    }
    if (a.priority != b.priority) {
      return Integer.compare(a.priority, b.priority);
    }
    int c = Long.compare(reservationTime(b), reservationTime(a));
    if (c != 0) {
      return c;
    }
    return ClusterQueue.uidOf(a).compareTo(ClusterQueue.uidOf(b));
  }

  private long reservationTime(Workload w) {
    return w.holdsQuota() && w.reservedAtMs != Workload.UNSET_TIME ? w.reservedAtMs : engine.now();
  }

  boolean workloadFits(Ctx ctx, boolean allowBorrowing) {
    FrAmounts u = ctx.usage();
    for (int i = 0; i < u.frs.length; i++) {
      int fr = u.frs[i];
      long v = u.amounts[i];
      if (!allowBorrowing && ctx.cq().borrowingWith(fr, v)) {
        return false;
      }
      if (v > Math.max(0, ctx.cq().available(fr))) {
        return false;
      }
    }
    // [TAS] Kueue workloadFits: every TAS podSet must place on the tree as it is now.
    return ctx.assignment() == null || engine.tas.flavors.placeable(ctx.preemptor(), ctx.cq(), ctx.assignment());
  }

  /** Kueue fillBackWorkloads: add victims back, newest-removed-but-one first, while the preemptor still fits. */
  List<Target> fillBack(Ctx ctx, List<Target> targets, boolean allowBorrowing) {
    List<Target> t = new ArrayList<>(targets);
    for (int i = t.size() - 2; i >= 0; i--) {
      Workload w = t.get(i).workload();
      engine.workloads.addUsage(w);
      if (workloadFits(ctx, allowBorrowing)) {
        t.set(i, t.get(t.size() - 1));
        t.remove(t.size() - 1);
      } else {
        engine.workloads.removeUsage(w);
      }
    }
    return t;
  }

  void restore(List<Target> targets) {
    for (Target t : targets) {
      engine.workloads.addUsage(t.workload());
    }
  }

  /**
   * Kueue IssuePreemptions: evicts the targets not already being evicted, on behalf of {@code preemptor}
   * of {@code cq}. Returns how many it newly evicted.
   */
  int issuePreemptions(Workload preemptor, ClusterQueue cq, List<Target> targets) {
    int evicted = 0;
    for (Target t : targets) {
      Workload v = t.workload();
      if (v.isEvicted()) {
        continue; // already being evicted: counts as preempted without a new patch
      }
      evicted++;
      // Kueue preemptionMessage (preemption.go): a simulated workload has no UID and no job-uid label.
      String msg = "Preempted to accommodate a workload (UID: " + unknownIfEmpty(preemptor.uid) + ", JobUID: UNKNOWN)"
          + " due to " + humanReason(t.reason()) + "; preemptor path: " + path(cq) + "; preemptee path: " + path(v.cq);
      v.preemptingClusterQueue = cq.name; // Kueue ReportPreemption labels the preemptor's ClusterQueue
      engine.workloads.evict(v, "Preempted", t.reason(), msg);
      engine.recorder.event(preemptor, "PreemptedWorkload", "Normal"); // Kueue IssuePreemptions, on the preemptor
    }
    return evicted;
  }

  private static String unknownIfEmpty(String s) {
    return s == null || s.isEmpty() ? "UNKNOWN" : s;
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

  private static String path(ClusterQueue q) {
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
}
