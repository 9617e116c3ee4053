package batchsim.core.kueue;

import batchsim.core.model.FairSharingStrategy;
import batchsim.core.model.PreemptionPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds preemption victims, as Kueue's Preemptor.GetTargets does.
 *
 * <p>Port of {@code pkg/scheduler/preemption/{preemption.go, classical/*, common/*, fairsharing/*}} @
 * ff69552e. Classical mode collects same-queue, hierarchy and priority candidates, orders them (evicted
 * first, other queues first, lower priority, most recently reserved, UID), removes them one by one from
 * the quota tree until the preemptor fits, then adds back every victim that is not needed. Fair-sharing
 * mode picks target queues by dominant resource share and applies the configured strategies.
 * Candidates' usage is removed from and restored to the live quota tree (mutate and undo).
 */
final class Preemptor {
  private final KueueEngine engine;

  Preemptor(KueueEngine engine) {
    this.engine = engine;
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
    return engine.config.fairSharing() ? fairPreemptions(ctx) : classicalPreemptions(ctx);
  }

  /** {@code assignment}: [TAS] the preemptor's assignment whose TAS podSets must fit, or null (quota only). */
  private record Ctx(Workload preemptor, ClusterQueue cq, int[] frs, FrAmounts usage, Assignment assignment) {}

  private enum Variant {
    NEVER, WITHIN_CQ, HIERARCHICAL_RECLAIM, RECLAIM_WITHOUT_BORROWING, RECLAIM_WHILE_BORROWING;

    String reason() {
      switch (this) {
        case WITHIN_CQ: return "InClusterQueue";
        case RECLAIM_WHILE_BORROWING: return "InCohortReclaimWhileBorrowing";
        default: return "InCohortReclamation";
      }
    }
  }

  private record Candidate(Workload w, Cohort lca, Variant variant) {}

  // ---------------------------------------------------------------- classical

  private List<Target> classicalPreemptions(Ctx ctx) {
    List<Candidate> same = new ArrayList<>();
    if (ctx.cq.withinClusterQueue() != PreemptionPolicy.NEVER) {
      same = candidatesFromCq(ctx, ctx.cq, null, false);
    }
    List<Candidate> hierarchy = new ArrayList<>();
    List<Candidate> priority = new ArrayList<>();
    collectHierarchical(ctx, hierarchy, priority);
    Comparator<Candidate> order = (a, b) -> candidatesOrdering(a.w, b.w, ctx.cq);
    same.sort(order);
    hierarchy.sort(order);
    priority.sort(order);
    List<Candidate> all = new ArrayList<>();
    for (boolean evicted : new boolean[] {true, false}) {
      for (List<Candidate> l : List.of(hierarchy, priority, same)) {
        for (Candidate c : l) {
          if (c.w.isEvicted() == evicted) {
            all.add(c);
          }
        }
      }
    }
    boolean noOther = hierarchy.isEmpty() && priority.isEmpty();
    boolean borrowForbidden = borrowWithinCohortForbidden(ctx.cq);
    boolean[] attempts;
    if (noOther || (borrowForbidden && !queueUnderNominal(ctx))) {
      attempts = new boolean[] {true};
    } else if (borrowForbidden && hierarchy.isEmpty()) {
      attempts = new boolean[] {false, true};
    } else {
      attempts = new boolean[] {true, false};
    }
    for (boolean borrowing : attempts) {
      List<Target> targets = new ArrayList<>();
      for (Candidate c : all) {
        if (!candidateValid(ctx, c, borrowing)) {
          continue;
        }
        engine.workloads.removeUsage(c.w); // quota and TAS usage, as Kueue's snapshot.RemoveWorkload
        targets.add(new Target(c.w, c.variant.reason()));
        if (workloadFits(ctx, borrowing)) {
          targets = fillBack(ctx, targets, borrowing);
          restore(targets);
          return targets;
        }
      }
      restore(targets);
    }
    return List.of();
  }

  private static boolean borrowWithinCohortForbidden(ClusterQueue cq) {
    return cq.spec.preemption().borrowWithinCohort() == PreemptionPolicy.NEVER;
  }

  private boolean candidateValid(Ctx ctx, Candidate c, boolean borrowing) {
    if (c.w.cq == ctx.cq) {
      return true;
    }
    if (borrowing && c.variant == Variant.RECLAIM_WITHOUT_BORROWING) {
      return false;
    }
    if (c.w.cq.withinNominal(ctx.frs)) {
      return false;
    }
    for (Cohort n = c.w.cq.parent; n != null && n != c.lca; n = n.parent) {
      if (n.withinNominal(ctx.frs)) {
        return false;
      }
    }
    return true;
  }

  private boolean queueUnderNominal(Ctx ctx) {
    for (int fr : ctx.frs) {
      if (ctx.cq.nominal[fr] <= ctx.cq.usage[fr]) {
        return false;
      }
    }
    return true;
  }

  private void collectHierarchical(Ctx ctx, List<Candidate> hierarchy, List<Candidate> priority) {
    if (!ctx.cq.hasParent() || ctx.cq.reclaimWithinCohort() == PreemptionPolicy.NEVER) {
      return;
    }
    long[] remaining = new long[ctx.usage.size()];
    boolean hasAdvantage = fitInQuota(ctx.cq, ctx.usage, null, remaining);
    Cohort previous = null;
    for (Cohort cur = ctx.cq.parent; cur != null; cur = cur.parent) {
      collectInSubtree(ctx, cur, cur, previous, hasAdvantage, hasAdvantage ? hierarchy : priority);
      long[] next = new long[remaining.length];
      boolean fits = fitInQuota(cur, ctx.usage, remaining, next);
      remaining = next;
      hasAdvantage |= fits;
      previous = cur;
    }
  }

  /** Kueue QuantitiesFitInQuota over the frs of {@code usage} (amounts from {@code amounts} if given). */
  private static boolean fitInQuota(QuotaNode node, FrAmounts usage, long[] amounts, long[] remainingOut) {
    boolean fits = true;
    for (int i = 0; i < usage.frs.length; i++) {
      int fr = usage.frs[i];
      long v = amounts == null ? usage.amounts[i] : amounts[i];
      if (node.subtreeQuota[fr] < node.usage[fr] + v) {
        fits = false;
      }
      remainingOut[i] = Math.max(0, v - node.localAvailable(fr));
    }
    return fits;
  }

  private void collectInSubtree(Ctx ctx, Cohort current, Cohort subtreeRoot, Cohort skip, boolean adv,
      List<Candidate> out) {
    for (Cohort child : current.childCohorts) {
      if (child == skip || child.withinNominal(ctx.frs)) {
        continue;
      }
      collectInSubtree(ctx, child, subtreeRoot, skip, adv, out);
    }
    for (ClusterQueue q : current.childQueues) {
      if (q != ctx.cq && !q.withinNominal(ctx.frs)) {
        out.addAll(candidatesFromCq(ctx, q, subtreeRoot, adv));
      }
    }
  }

  private List<Candidate> candidatesFromCq(Ctx ctx, ClusterQueue q, Cohort lca, boolean adv) {
    List<Candidate> out = new ArrayList<>();
    for (Workload w : q.admitted) {
      Variant v = classify(ctx, w, adv);
      if (v != Variant.NEVER) {
        out.add(new Candidate(w, lca, v));
      }
    }
    return out;
  }

  private Variant classify(Ctx ctx, Workload w, boolean adv) {
    if (!w.usesAny(ctx.frs)) {
      return Variant.NEVER;
    }
    boolean same = w.cq == ctx.cq;
    PreemptionPolicy policy = same ? ctx.cq.withinClusterQueue() : ctx.cq.reclaimWithinCohort();
    if (!satisfiesPolicy(ctx.preemptor, w, policy)) {
      return Variant.NEVER;
    }
    if (same) {
      return Variant.WITHIN_CQ;
    }
    if (adv) {
      return Variant.HIERARCHICAL_RECLAIM;
    }
    if (borrowWithinCohortForbidden(ctx.cq)) {
      return Variant.RECLAIM_WITHOUT_BORROWING;
    }
    Integer threshold = ctx.cq.spec.preemption().borrowMaxPriorityThreshold();
    if (w.priority >= ctx.preemptor.priority || (threshold != null && w.priority > threshold)) {
      return Variant.RECLAIM_WITHOUT_BORROWING;
    }
    return Variant.RECLAIM_WHILE_BORROWING;
  }

  /** Kueue SatisfiesPreemptionPolicy. */
  boolean satisfiesPolicy(Workload preemptor, Workload candidate, PreemptionPolicy policy) {
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

  /** Kueue CandidatesOrdering: evicted, other queues, lower priority, most recently reserved, UID. */
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

  private boolean workloadFits(Ctx ctx, boolean allowBorrowing) {
    FrAmounts u = ctx.usage;
    for (int i = 0; i < u.frs.length; i++) {
      int fr = u.frs[i];
      long v = u.amounts[i];
      if (!allowBorrowing && ctx.cq.borrowingWith(fr, v)) {
        return false;
      }
      if (v > Math.max(0, ctx.cq.available(fr))) {
        return false;
      }
    }
    // [TAS] Kueue workloadFits: every TAS podSet must place on the tree as it is now.
    return ctx.assignment == null || engine.tas.flavors.placeable(ctx.preemptor, ctx.cq, ctx.assignment);
  }

  /** Kueue fillBackWorkloads: add victims back, newest-removed-but-one first, while the preemptor still fits. */
  private List<Target> fillBack(Ctx ctx, List<Target> targets, boolean allowBorrowing) {
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

  private void restore(List<Target> targets) {
    for (Target t : targets) {
      engine.workloads.addUsage(t.workload());
    }
  }

  // ---------------------------------------------------------------- fair sharing

  private List<Target> fairPreemptions(Ctx ctx) {
    List<Workload> candidates = new ArrayList<>();
    if (ctx.cq.withinClusterQueue() != PreemptionPolicy.NEVER) {
      addForPolicy(ctx, ctx.cq, ctx.cq.withinClusterQueue(), candidates);
    }
    if (ctx.cq.hasParent() && ctx.cq.reclaimWithinCohort() != PreemptionPolicy.NEVER) {
      for (ClusterQueue q : ctx.cq.root().subtreeQueues()) {
        if (q == ctx.cq || !isBorrowing(q, ctx.frs)) {
          continue;
        }
        addForPolicy(ctx, q, ctx.cq.reclaimWithinCohort(), candidates);
      }
    }
    if (candidates.isEmpty()) {
      return List.of();
    }
    candidates.sort((a, b) -> candidatesOrdering(a, b, ctx.cq));
    ctx.cq.addUsage(ctx.usage);
    List<Target> targets = new ArrayList<>();
    List<Workload> retry = new ArrayList<>();
    List<FairSharingStrategy> strategies = engine.config.fairSharingStrategies();
    boolean fits = runFirstStrategy(ctx, candidates, strategies.get(0), targets, retry);
    if (!fits && strategies.size() > 1) {
      fits = runSecondStrategy(ctx, retry, targets);
    }
    ctx.cq.removeUsage(ctx.usage);
    if (!fits) {
      restore(targets);
      return List.of();
    }
    targets = fillBack(ctx, targets, true);
    restore(targets);
    return targets;
  }

  private void addForPolicy(Ctx ctx, ClusterQueue q, PreemptionPolicy policy, List<Workload> out) {
    for (Workload w : q.admitted) {
      if (satisfiesPolicy(ctx.preemptor, w, policy) && w.usesAny(ctx.frs)) {
        out.add(w);
      }
    }
  }

  private static boolean isBorrowing(ClusterQueue q, int[] frs) {
    if (!q.hasParent()) {
      return false;
    }
    for (int fr : frs) {
      if (q.borrowingWith(fr, 0)) {
        return true;
      }
    }
    return false;
  }

  private boolean fitsForFairSharing(Ctx ctx) {
    ctx.cq.removeUsage(ctx.usage);
    boolean r = workloadFits(ctx, true);
    ctx.cq.addUsage(ctx.usage);
    return r;
  }

  private boolean strategyPasses(FairSharingStrategy s, Drs preemptorNew, Drs targetOld, Drs targetNew) {
    return s == FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE
        ? Drs.compare(preemptorNew, targetNew) <= 0
        : Drs.compare(preemptorNew, targetOld) < 0;
  }

  private boolean runFirstStrategy(Ctx ctx, List<Workload> candidates, FairSharingStrategy strategy,
      List<Target> targets, List<Workload> retry) {
    TargetOrdering ordering = new TargetOrdering(ctx.cq, candidates);
    boolean preemptorWithinNominal = !isBorrowing(ctx.cq, ctx.frs) || !ctx.cq.hasParent();
    ClusterQueue t;
    while ((t = ordering.next()) != null) {
      if (t == ctx.cq || preemptorWithinNominal) {
        Workload w = ordering.pop(t);
        engine.workloads.removeUsage(w);
        targets.add(new Target(w, t == ctx.cq ? "InClusterQueue" : "InCohortReclamation"));
        if (fitsForFairSharing(ctx)) {
          return true;
        }
        continue;
      }
      Drs preemptorNew = Drs.of(almostLca(ctx.cq, lca(ctx.cq, t)), null, engine.index);
      Drs targetOld = Drs.of(almostLca(t, lca(ctx.cq, t)), null, engine.index);
      if (preemptorNew.weightedShare() == Double.POSITIVE_INFINITY
          && targetOld.weightedShare() != Double.POSITIVE_INFINITY) {
        while (ordering.hasWorkload(t)) {
          retry.add(ordering.pop(t));
        }
        continue;
      }
      while (ordering.hasWorkload(t)) {
        Workload w = ordering.pop(t);
        t.removeUsage(w.usage);
        Drs targetNew = Drs.of(almostLca(t, lca(ctx.cq, t)), null, engine.index);
        t.addUsage(w.usage);
        if (strategyPasses(strategy, preemptorNew, targetOld, targetNew)) {
          engine.workloads.removeUsage(w);
          targets.add(new Target(w, "InCohortFairSharing"));
          if (fitsForFairSharing(ctx)) {
            return true;
          }
          break;
        }
        retry.add(w);
      }
    }
    return false;
  }

  private boolean runSecondStrategy(Ctx ctx, List<Workload> retry, List<Target> targets) {
    TargetOrdering ordering = new TargetOrdering(ctx.cq, retry);
    ClusterQueue t;
    while ((t = ordering.next()) != null) {
      Drs preemptorNew = Drs.of(almostLca(ctx.cq, lca(ctx.cq, t)), null, engine.index);
      Drs targetOld = Drs.of(almostLca(t, lca(ctx.cq, t)), null, engine.index);
      boolean passed = Drs.compare(preemptorNew, targetOld) < 0;
      Workload w = ordering.pop(t);
      if (passed) {
        engine.workloads.removeUsage(w);
        targets.add(new Target(w, "InCohortFairSharing"));
        if (fitsForFairSharing(ctx)) {
          return true;
        }
      }
      ordering.drop(t);
    }
    return false;
  }

  /** The first cohort on t's path to the root that also contains the preemptor's queue. */
  private static Cohort lca(ClusterQueue preemptorCq, ClusterQueue t) {
    for (Cohort a = t.parent; a != null; a = a.parent) {
      if (a.isAncestorOf(preemptorCq)) {
        return a;
      }
    }
    throw new IllegalStateException("no common ancestor of " + preemptorCq + " and " + t);
  }

  /** The node just below {@code lca} on the path from {@code q}. */
  private static QuotaNode almostLca(ClusterQueue q, Cohort lca) {
    QuotaNode n = q;
    for (Cohort a = q.parent; a != null; a = a.parent) {
      if (a == lca) {
        return n;
      }
      n = a;
    }
    throw new IllegalStateException("not an ancestor");
  }

  /** Kueue TargetClusterQueueOrdering: repeatedly descend to the child with the highest DRS. */
  private final class TargetOrdering {
    private final ClusterQueue preemptorCq;
    private final Map<ClusterQueue, List<Workload>> byQueue = new LinkedHashMap<>();
    private final java.util.Set<QuotaNode> pruned = new java.util.HashSet<>();

    TargetOrdering(ClusterQueue preemptorCq, List<Workload> candidates) {
      this.preemptorCq = preemptorCq;
      for (Workload w : candidates) {
        byQueue.computeIfAbsent(w.cq, k -> new ArrayList<>()).add(w);
      }
    }

    boolean hasWorkload(ClusterQueue q) {
      List<Workload> l = byQueue.get(q);
      return l != null && !l.isEmpty();
    }

    Workload pop(ClusterQueue q) {
      return byQueue.get(q).remove(0);
    }

    void drop(ClusterQueue q) {
      pruned.add(q);
    }

    ClusterQueue next() {
      if (!preemptorCq.hasParent()) {
        return !pruned.contains(preemptorCq) && hasWorkload(preemptorCq) ? preemptorCq : null;
      }
      Cohort root = preemptorCq.root();
      while (!pruned.contains(root)) {
        ClusterQueue t = nextTarget(root);
        if (t != null) {
          return t;
        }
      }
      return null;
    }

    private ClusterQueue nextTarget(Cohort cohort) {
      ClusterQueue bestCq = null;
      Drs bestCqDrs = Drs.NEGATIVE;
      for (ClusterQueue q : cohort.childQueues) {
        if (pruned.contains(q)) {
          continue;
        }
        Drs d = Drs.of(q, null, engine.index);
        if ((!d.borrowing() && q != preemptorCq) || !hasWorkload(q)) {
          pruned.add(q);
        } else if (bestCq != null && Drs.compare(d, bestCqDrs) == 0) {
          if (candidatesOrdering(byQueue.get(q).get(0), byQueue.get(bestCq).get(0), preemptorCq) < 0) {
            bestCq = q;
          }
        } else if (Drs.compare(d, bestCqDrs) > 0) {
          bestCqDrs = d;
          bestCq = q;
        }
      }
      Cohort bestCohort = null;
      Drs bestCohortDrs = Drs.NEGATIVE;
      for (Cohort c : cohort.childCohorts) {
        if (pruned.contains(c)) {
          continue;
        }
        Drs d = Drs.of(c, null, engine.index);
        if (!d.borrowing() && !c.isAncestorOf(preemptorCq)) {
          pruned.add(c);
        } else if (Drs.compare(d, bestCohortDrs) >= 0) {
          bestCohortDrs = d;
          bestCohort = c;
        }
      }
      if (bestCohort == null && bestCq == null) {
        pruned.add(cohort);
        return null;
      }
      if (bestCohort != null && Drs.compare(bestCohortDrs, bestCqDrs) >= 0) {
        return nextTarget(bestCohort);
      }
      return bestCq;
    }
  }
}
