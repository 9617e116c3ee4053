package batchsim.core.kueue;

import batchsim.core.model.PreemptionPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Kueue's classical preemption (pkg/scheduler/preemption/classical): same-queue, hierarchy and priority
 * candidates, each with the variant that allows it (reclaim while or without borrowing), ordered and
 * removed one by one from the quota tree until the preemptor fits, first with borrowing and then without
 * (or the other way round, as the borrowWithinCohort policy decides).
 */
final class ClassicalPreemption {
  private final KueueEngine engine;
  private final Preemptor preemptor;

  ClassicalPreemption(KueueEngine engine, Preemptor preemptor) {
    this.engine = engine;
    this.preemptor = preemptor;
  }

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

  List<Target> targets(Preemptor.Ctx ctx) {
    List<Candidate> same = new ArrayList<>();
    if (ctx.cq().withinClusterQueue() != PreemptionPolicy.NEVER) {
      same = candidatesFromCq(ctx, ctx.cq(), null, false);
    }
    List<Candidate> hierarchy = new ArrayList<>();
    List<Candidate> priority = new ArrayList<>();
    collectHierarchical(ctx, hierarchy, priority);
    preemptor.candidatesVisited += same.size() + hierarchy.size() + priority.size();
    Comparator<Candidate> order = (a, b) -> preemptor.candidatesOrdering(a.w, b.w, ctx.cq());
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
    boolean borrowForbidden = borrowWithinCohortForbidden(ctx.cq());
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
        if (preemptor.workloadFits(ctx, borrowing)) {
          targets = preemptor.fillBack(ctx, targets, borrowing);
          preemptor.restore(targets);
          return targets;
        }
      }
      preemptor.restore(targets);
    }
    return List.of();
  }

  private static boolean borrowWithinCohortForbidden(ClusterQueue cq) {
    return cq.spec.preemption().borrowWithinCohort() == PreemptionPolicy.NEVER;
  }

  private boolean candidateValid(Preemptor.Ctx ctx, Candidate c, boolean borrowing) {
    if (c.w.cq == ctx.cq()) {
      return true;
    }
    if (borrowing && c.variant == Variant.RECLAIM_WITHOUT_BORROWING) {
      return false;
    }
    if (c.w.cq.withinNominal(ctx.frs())) {
      return false;
    }
    for (Cohort n = c.w.cq.parent; n != null && n != c.lca; n = n.parent) {
      if (n.withinNominal(ctx.frs())) {
        return false;
      }
    }
    return true;
  }

  private boolean queueUnderNominal(Preemptor.Ctx ctx) {
    for (int fr : ctx.frs()) {
      if (ctx.cq().nominal[fr] <= ctx.cq().usage[fr]) {
        return false;
      }
    }
    return true;
  }

  private void collectHierarchical(Preemptor.Ctx ctx, List<Candidate> hierarchy, List<Candidate> priority) {
    if (!ctx.cq().hasParent() || ctx.cq().reclaimWithinCohort() == PreemptionPolicy.NEVER) {
      return;
    }
    long[] remaining = new long[ctx.usage().size()];
    boolean hasAdvantage = fitInQuota(ctx.cq(), ctx.usage(), null, remaining);
    Cohort previous = null;
    for (Cohort cur = ctx.cq().parent; cur != null; cur = cur.parent) {
      collectInSubtree(ctx, cur, cur, previous, hasAdvantage, hasAdvantage ? hierarchy : priority);
      long[] next = new long[remaining.length];
      boolean fits = fitInQuota(cur, ctx.usage(), remaining, next);
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

  private void collectInSubtree(Preemptor.Ctx ctx, Cohort current, Cohort subtreeRoot, Cohort skip, boolean adv,
      List<Candidate> out) {
    for (Cohort child : current.childCohorts) {
      if (child == skip || child.withinNominal(ctx.frs())) {
        continue;
      }
      collectInSubtree(ctx, child, subtreeRoot, skip, adv, out);
    }
    for (ClusterQueue q : current.childQueues) {
      if (q != ctx.cq() && !q.withinNominal(ctx.frs())) {
        out.addAll(candidatesFromCq(ctx, q, subtreeRoot, adv));
      }
    }
  }

  private List<Candidate> candidatesFromCq(Preemptor.Ctx ctx, ClusterQueue q, Cohort lca, boolean adv) {
    List<Candidate> out = new ArrayList<>();
    for (Workload w : q.admitted) {
      Variant v = classify(ctx, w, adv);
      if (v != Variant.NEVER) {
        out.add(new Candidate(w, lca, v));
      }
    }
    return out;
  }

  private Variant classify(Preemptor.Ctx ctx, Workload w, boolean adv) {
    if (!w.usesAny(ctx.frs())) {
      return Variant.NEVER;
    }
    boolean same = w.cq == ctx.cq();
    PreemptionPolicy policy = same ? ctx.cq().withinClusterQueue() : ctx.cq().reclaimWithinCohort();
    if (!preemptor.satisfiesPolicy(ctx.preemptor(), w, policy)) {
      return Variant.NEVER;
    }
    if (same) {
      return Variant.WITHIN_CQ;
    }
    if (adv) {
      return Variant.HIERARCHICAL_RECLAIM;
    }
    if (borrowWithinCohortForbidden(ctx.cq())) {
      return Variant.RECLAIM_WITHOUT_BORROWING;
    }
    Integer threshold = ctx.cq().spec.preemption().borrowMaxPriorityThreshold();
    if (w.priority >= ctx.preemptor().priority || (threshold != null && w.priority > threshold)) {
      return Variant.RECLAIM_WITHOUT_BORROWING;
    }
    return Variant.RECLAIM_WHILE_BORROWING;
  }
}
