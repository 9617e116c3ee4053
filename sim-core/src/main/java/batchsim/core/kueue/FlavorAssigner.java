package batchsim.core.kueue;

import batchsim.core.kueue.Assignment.PodSetAssignment;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Chooses a flavor for every resource of every podSet, as Kueue does.
 *
 * <p>Port of {@code pkg/scheduler/flavorassigner/flavorassigner.go} @ ff69552e: flavors of a resource
 * group are tried in ClusterQueue order, resuming after the last tried one; a flavor must match the
 * podSet's node selector and tolerate the flavor's taints; each resource is classified fit / preempt /
 * reclaim / noCandidates / noFit (the preemption oracle decides between the middle three), and the
 * flavorFungibility policy decides whether to stop or keep looking. Differs in: zero-valued requests are
 * treated as absent; TAS and podSet groups come with the TAS work.
 */
final class FlavorAssigner {
  private final KueueEngine engine;

  FlavorAssigner(KueueEngine engine) {
    this.engine = engine;
  }

  /** Assigns flavors for {@code counts} pods per podSet (null = the full counts). */
  Assignment assign(Workload w, ClusterQueue cq, int[] counts) {
    FlavorResources idx = engine.index;
    int nRes = idx.resources().size();
    Assignment a = new Assignment();
    LastAssignment last = w.lastAssignment;
    List<PodSetSpec> podSets = w.spec.podSets();
    int[][] tried = new int[podSets.size()][nRes];
    for (int[] row : tried) {
      java.util.Arrays.fill(row, LastAssignment.NOT_TRIED);
    }
    a.lastState = new LastAssignment(tried, cq.generation, engine.cycle);
    for (int i = 0; i < podSets.size(); i++) {
      PodSetSpec ps = podSets.get(i);
      int count = counts == null ? ps.count() : counts[i];
      long[] req = requests(ps, count, cq, nRes);
      PodSetAssignment psa = new PodSetAssignment(ps.name(), count, nRes);
      boolean failed = false;
      for (int r = 0; r < nRes; r++) {
        if (req[r] == 0 || psa.flavor[r] >= 0) {
          continue;
        }
        ResourceGroup g = cq.groupFor(r);
        if (g == null) {
          psa.reasons.clear();
          psa.reasons.add("resource " + idx.resources().name(r) + " unavailable in ClusterQueue");
          clearFlavors(psa);
          failed = true;
          break;
        }
        int start = last == null ? 0 : last.nextFlavorToTry(i, r);
        if (!findFlavor(w, cq, i, ps, psa, g, req, start, a)) {
          clearFlavors(psa);
          failed = true;
          break;
        }
      }
      // Assignment.append: usage and borrowing of the chosen flavors.
      for (int r = 0; r < nRes; r++) {
        if (psa.flavor[r] >= 0 && req[r] > 0) {
          a.usageMap.merge(idx.fr(psa.flavor[r], r), req[r], Long::sum);
          a.borrowing = Math.max(a.borrowing, psa.borrow[r]);
          tried[i][r] = psa.triedIdx[r];
        }
      }
      a.podSets.add(psa);
      if (failed) {
        resolveNoFitReason(a, cq);
        return a;
      }
    }
    // [TAS] Kueue assignFlavors, after quota: place the TAS podSets (Fit → Preempt → NoFit).
    if (a.representativeMode() != AssignmentMode.NO_FIT) {
      engine.tas.flavors.assignFlavors(w, cq, a);
    }
    if (a.representativeMode() == AssignmentMode.NO_FIT) {
      resolveNoFitReason(a, cq);
    }
    return a;
  }

  private static void clearFlavors(PodSetAssignment psa) {
    java.util.Arrays.fill(psa.flavor, -1);
  }

  /** Per-podSet quota requests: perPod × count, plus pods = count when the CQ covers pods. */
  static long[] requests(PodSetSpec ps, int count, ClusterQueue cq, int nRes) {
    long[] req = new long[nRes];
    for (int r = 0; r < nRes; r++) {
      req[r] = Math.multiplyExact(ps.perPod().get(r), (long) count);
    }
    if (cq.coversPods) {
      req[cq.podsResource] = count;
    }
    return req;
  }

  /**
   * Kueue findFlavorForPodSets for the group covering one resource. Fills the chosen flavor into
   * {@code psa} for every requested resource of the group; returns false when no flavor is viable.
   */
  private boolean findFlavor(Workload w, ClusterQueue cq, int psIndex, PodSetSpec ps, PodSetAssignment psa,
      ResourceGroup g, long[] req, int start, Assignment a) {
    FlavorResources idx = engine.index;
    List<String> reasons = new ArrayList<>();
    int[] bestFlavorOf = null;
    int[] bestBorrow = null;
    PreemptionMode[] bestModes = null;
    GranularMode bestMode = GranularMode.WORST;
    int attempted = -1;
    var fungibility = cq.spec.fungibility();
    for (int fi = start; fi < g.flavors().length; fi++) {
      attempted = fi;
      int f = g.flavors()[fi];
      psa.attemptedAny = true;
      if (sticky != null && skipForNomination(sticky, psIndex, g, f, req)) {
        continue;
      }
      // [TAS] Kueue checkPodSetAndFlavorMatchForTAS comes before taints and selectors.
      String mismatch = engine.tas.flavors.checkFlavor(cq, ps, f, g);
      if (mismatch == null) {
        mismatch = checkFlavor(engine.flavorSpecs.get(f), ps);
      }
      if (mismatch != null) {
        reasons.add(mismatch);
        psa.noFitAttempts.add(new String[] {idx.flavorName(f), "NoMatchingFlavor"});
        continue;
      }
      GranularMode rep = GranularMode.BEST;
      int[] flavorOf = new int[req.length];
      int[] borrowOf = new int[req.length];
      PreemptionMode[] modes = new PreemptionMode[req.length];
      java.util.Arrays.fill(flavorOf, -1);
      String noFitReason = "";
      for (int r : g.covered()) {
        if (req[r] == 0) {
          continue;
        }
        int fr = idx.fr(f, r);
        Fit fit = fitsResourceQuota(w, cq, fr, a.usageMap.getOrDefault(fr, 0L), req[r]);
        if (fit.reason != null) {
          reasons.add(fit.reason);
          noFitReason = mostSevere(noFitReason, fit.noFitReason);
        }
        GranularMode m = new GranularMode(fit.mode, fit.borrow);
        if (GranularMode.isPreferred(rep, m, fungibility)) {
          rep = m;
        }
        if (rep.mode() == PreemptionMode.NO_FIT) {
          continue; // Kueue keeps evaluating (and collecting reasons) but assigns nothing more
        }
        flavorOf[r] = f;
        borrowOf[r] = fit.borrow;
        modes[r] = fit.mode;
      }
      if (rep.mode() == PreemptionMode.NO_FIT) {
        psa.noFitAttempts.add(new String[] {idx.flavorName(f), noFitReason});
      }
      if (!GranularMode.shouldTryNextFlavor(rep, fungibility)) {
        bestFlavorOf = flavorOf;
        bestBorrow = borrowOf;
        bestModes = modes;
        bestMode = rep;
        break;
      }
      if (GranularMode.isPreferred(rep, bestMode, fungibility)) {
        bestFlavorOf = flavorOf;
        bestBorrow = borrowOf;
        bestModes = modes;
        bestMode = rep;
      }
    }
    if (bestFlavorOf == null) {
      psa.reasons.addAll(reasons);
      return false;
    }
    int triedIdx = attempted == g.flavors().length - 1 ? -1 : attempted;
    for (int r : g.covered()) {
      if (bestFlavorOf[r] >= 0) {
        psa.flavor[r] = bestFlavorOf[r];
        psa.borrow[r] = bestBorrow[r];
        psa.mode[r] = bestModes[r].assignmentMode();
        psa.triedIdx[r] = triedIdx;
      }
    }
    if (bestMode.mode() != PreemptionMode.FIT) {
      psa.reasons.addAll(reasons);
    }
    return true;
  }

  /**
   * [TAS] Kueue NominationMapping: while a TAS assignment is recomputed within the cycle, each podSet keeps
   * the flavors it was nominated with ([podSet][resource] → flavor), so earlier quota decisions stay valid.
   */
  int[][] sticky;

  /** Kueue shouldSkipBasedOnNominationMapping, for the group's requested resources of one podSet. */
  private static boolean skipForNomination(int[][] sticky, int psIndex, ResourceGroup g, int f, long[] req) {
    if (psIndex >= sticky.length) {
      return false;
    }
    for (int r : g.covered()) {
      if (req[r] > 0 && sticky[psIndex][r] == f) {
        return false;
      }
    }
    return true;
  }

  /** Kueue checkFlavorForPodSets: taints must be tolerated and the node selector must match. */
  static String checkFlavor(ResourceFlavorSpec flavor, PodSetSpec ps) {
    List<Toleration> tolerations = new ArrayList<>(ps.tolerations());
    tolerations.addAll(flavor.tolerations());
    for (var t : flavor.nodeTaints()) {
      if (t.isHard() && !Toleration.toleratesAll(List.of(t), tolerations)) {
        return "untolerated taint " + t.key() + "=" + (t.value() == null ? "" : t.value()) + ":" + t.effect()
            + " in flavor " + flavor.name();
      }
    }
    // Only this flavor's own label keys count: selectors on other keys are for other flavors.
    for (Map.Entry<String, String> e : ps.nodeSelector().entrySet()) {
      String v = flavor.nodeLabels().get(e.getKey());
      if (v != null && !v.equals(e.getValue())) {
        return "flavor " + flavor.name() + " doesn't match node affinity";
      }
    }
    return null;
  }

  record Fit(PreemptionMode mode, int borrow, String reason, String noFitReason) {}

  /** Kueue fitsResourceQuota for one flavor-resource. */
  Fit fitsResourceQuota(Workload w, ClusterQueue cq, int fr, long assumed, long request) {
    FlavorResources idx = engine.index;
    long available = Math.max(0, cq.available(fr));
    long maxCapacity = cq.potentialAvailable(fr);
    long val = assumed + request;
    String res = idx.resourceName(fr);
    String flv = idx.flavorName(idx.flavorOf(fr));
    if (val > maxCapacity) {
      return new Fit(PreemptionMode.NO_FIT, 0, String.format(java.util.Locale.ROOT,
          "insufficient quota for %s in flavor %s, previously considered podsets requests (%s) + current podset request (%s) > maximum capacity (%s)",
          res, flv, idx.format(fr, assumed), idx.format(fr, request), idx.format(fr, maxCapacity)),
          "ExceedsMaxQuota");
    }
    Height h = height(cq, fr, val);
    if (val <= available) {
      return new Fit(PreemptionMode.FIT, h.height, null, "");
    }
    String reason = String.format(java.util.Locale.ROOT, "insufficient unused quota for %s in flavor %s, %s more needed",
        res, flv, idx.format(fr, val - available));
    if (cq.nominal[fr] >= val || h.mayReclaimInHierarchy || canPreemptWhileBorrowing(cq)) {
      Preemptor.Possibility p = engine.preemptor.simulate(w, cq, fr, val);
      return new Fit(p.mode(), p.borrowAfter(), reason, p.mode() == PreemptionMode.NO_FIT ? "WaitingForQuota" : "");
    }
    return new Fit(PreemptionMode.NO_FIT, h.height, reason, "WaitingForQuota");
  }

  private boolean canPreemptWhileBorrowing(ClusterQueue cq) {
    return cq.spec.preemption().borrowWithinCohort() != PreemptionPolicy.NEVER
        || (engine.config.fairSharing() && cq.reclaimWithinCohort() != PreemptionPolicy.NEVER);
  }

  record Height(int height, boolean mayReclaimInHierarchy) {}

  /** Kueue FindHeightOfLowestSubtreeThatFits: how far up the tree the quota for {@code val} comes from. */
  static Height height(ClusterQueue cq, int fr, long val) {
    if (!cq.borrowingWith(fr, val) || !cq.hasParent()) {
      return new Height(0, cq.hasParent());
    }
    long remaining = val - cq.localAvailable(fr);
    for (Cohort c = cq.parent; c != null; c = c.parent) {
      if (!c.borrowingWith(fr, remaining)) {
        return new Height(c.height, c.hasParent());
      }
      remaining -= c.localAvailable(fr);
    }
    return new Height(cq.root().height, false);
  }

  static int severity(String reason) {
    switch (reason) {
      case "NoMatchingFlavor": return 4;
      case "ExceedsMaxQuota": return 3;
      case "WaitingForQuota": return 2;
      case "TopologyPlacementFailed": return 1;
      default: return 0;
    }
  }

  static String mostSevere(String a, String b) {
    return severity(a) >= severity(b) ? a : b;
  }

  /** Kueue resolveNoFitReason: the least severe blocker per resource group, the most severe across groups. */
  private void resolveNoFitReason(Assignment a, ClusterQueue cq) {
    if (a.representativeMode() != AssignmentMode.NO_FIT) {
      return;
    }
    String overall = "";
    for (PodSetAssignment ps : a.podSets) {
      if (ps.representativeMode() != AssignmentMode.NO_FIT) {
        continue;
      }
      if (ps.noFitAttempts.isEmpty()) {
        overall = mostSevere(overall, "NoMatchingFlavor");
        continue;
      }
      java.util.TreeMap<Integer, String> perGroup = new java.util.TreeMap<>();
      int i = 0;
      for (String[] att : ps.noFitAttempts) {
        int f = engine.index.flavorIndex(att[0]);
        List<Integer> groups = new ArrayList<>();
        for (int gi = 0; gi < cq.groups.size(); gi++) {
          for (int gf : cq.groups.get(gi).flavors()) {
            if (gf == f) {
              groups.add(gi);
            }
          }
        }
        if (groups.isEmpty()) {
          groups.add(-1 - i);
        }
        for (int gi : groups) {
          String cur = perGroup.get(gi);
          if (cur == null || severity(att[1]) < severity(cur)) {
            perGroup.put(gi, att[1]);
          }
        }
        i++;
      }
      String psReason = "";
      for (String r : perGroup.values()) {
        psReason = mostSevere(psReason, r);
      }
      overall = mostSevere(overall, psReason);
    }
    a.noFitReason = overall;
  }
}
