package batchsim.core.kueue;

import batchsim.core.model.FairSharingStrategy;
import batchsim.core.model.PreemptionPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * Kueue's fair-sharing preemption (pkg/scheduler/preemption/fairsharing): candidates from the preemptor's
 * queue and the borrowing queues of its cohort tree, taken target queue by target queue (highest dominant
 * resource share first) while the configured strategies allow, then the second strategy on the rest.
 */
final class FairSharingPreemption {
  private final KueueEngine engine;
  private final Preemptor preemptor;

  FairSharingPreemption(KueueEngine engine, Preemptor preemptor) {
    this.engine = engine;
    this.preemptor = preemptor;
  }

  List<Target> targets(Preemptor.Ctx ctx) {
    List<Workload> candidates = new ArrayList<>();
    if (ctx.cq().withinClusterQueue() != PreemptionPolicy.NEVER) {
      addForPolicy(ctx, ctx.cq(), ctx.cq().withinClusterQueue(), candidates);
    }
    if (ctx.cq().hasParent() && ctx.cq().reclaimWithinCohort() != PreemptionPolicy.NEVER) {
      for (ClusterQueue q : ctx.cq().root().subtreeQueues()) {
        if (q == ctx.cq() || !isBorrowing(q, ctx.frs())) {
          continue;
        }
        addForPolicy(ctx, q, ctx.cq().reclaimWithinCohort(), candidates);
      }
    }
    preemptor.candidatesVisited += candidates.size();
    if (candidates.isEmpty()) {
      return List.of();
    }
    candidates.sort((a, b) -> preemptor.candidatesOrdering(a, b, ctx.cq()));
    ctx.cq().addUsage(ctx.usage());
    List<Target> targets = new ArrayList<>();
    List<Workload> retry = new ArrayList<>();
    List<FairSharingStrategy> strategies = engine.config.fairSharingStrategies();
    boolean fits = runFirstStrategy(ctx, candidates, strategies.get(0), targets, retry);
    if (!fits && strategies.size() > 1) {
      fits = runSecondStrategy(ctx, retry, targets);
    }
    ctx.cq().removeUsage(ctx.usage());
    if (!fits) {
      preemptor.restore(targets);
      return List.of();
    }
    targets = preemptor.fillBack(ctx, targets, true);
    preemptor.restore(targets);
    return targets;
  }

  private void addForPolicy(Preemptor.Ctx ctx, ClusterQueue q, PreemptionPolicy policy, List<Workload> out) {
    for (Workload w : q.admitted) {
      if (preemptor.satisfiesPolicy(ctx.preemptor(), w, policy) && w.usesAny(ctx.frs())) {
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

  private boolean fitsForFairSharing(Preemptor.Ctx ctx) {
    ctx.cq().removeUsage(ctx.usage());
    boolean r = preemptor.workloadFits(ctx, true);
    ctx.cq().addUsage(ctx.usage());
    return r;
  }

  private boolean strategyPasses(FairSharingStrategy s, Drs preemptorNew, Drs targetOld, Drs targetNew) {
    return s == FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE
        ? Drs.compare(preemptorNew, targetNew) <= 0
        : Drs.compare(preemptorNew, targetOld) < 0;
  }

  private boolean runFirstStrategy(Preemptor.Ctx ctx, List<Workload> candidates, FairSharingStrategy strategy,
      List<Target> targets, List<Workload> retry) {
    TargetClusterQueueOrdering ordering = new TargetClusterQueueOrdering(engine, ctx.cq(), candidates);
    boolean preemptorWithinNominal = !isBorrowing(ctx.cq(), ctx.frs()) || !ctx.cq().hasParent();
    ClusterQueue t;
    while ((t = ordering.next()) != null) {
      if (t == ctx.cq() || preemptorWithinNominal) {
        Workload w = ordering.pop(t);
        engine.workloads.removeUsage(w);
        targets.add(new Target(w, t == ctx.cq() ? "InClusterQueue" : "InCohortReclamation"));
        if (fitsForFairSharing(ctx)) {
          return true;
        }
        continue;
      }
      Drs preemptorNew = Drs.of(almostLca(ctx.cq(), lca(ctx.cq(), t)), null, engine.index);
      Drs targetOld = Drs.of(almostLca(t, lca(ctx.cq(), t)), null, engine.index);
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
        Drs targetNew = Drs.of(almostLca(t, lca(ctx.cq(), t)), null, engine.index);
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

  private boolean runSecondStrategy(Preemptor.Ctx ctx, List<Workload> retry, List<Target> targets) {
    TargetClusterQueueOrdering ordering = new TargetClusterQueueOrdering(engine, ctx.cq(), retry);
    ClusterQueue t;
    while ((t = ordering.next()) != null) {
      Drs preemptorNew = Drs.of(almostLca(ctx.cq(), lca(ctx.cq(), t)), null, engine.index);
      Drs targetOld = Drs.of(almostLca(t, lca(ctx.cq(), t)), null, engine.index);
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
}
