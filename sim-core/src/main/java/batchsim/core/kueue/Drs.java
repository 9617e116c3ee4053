package batchsim.core.kueue;

/**
 * Kueue's dominant resource share of a quota node (pkg/cache/scheduler/fair_sharing.go): for each
 * resource, the amount borrowed above the node's subtree quota per 1000 of what the parent could lend,
 * taking the maximum, divided by the fair weight.
 */
record Drs(double fairWeight, double unweightedRatio, String dominantResource, boolean borrowing, int[] borrowedFrs) {
  static final Drs NEGATIVE = new Drs(1.0, -1, "", false, new int[0]);

  boolean isZero() {
    return unweightedRatio == 0;
  }

  double weightedShare() {
    if (isZero()) {
      return 0;
    }
    if (fairWeight == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return unweightedRatio / fairWeight;
  }

  boolean zeroWeightBorrows() {
    return fairWeight == 0 && !isZero();
  }

  boolean borrowingOn(FrAmounts requested) {
    for (int fr : borrowedFrs) {
      if (requested.get(fr) > 0) {
        return true;
      }
    }
    return false;
  }

  static int compare(Drs a, Drs b) {
    if (a.zeroWeightBorrows() && b.zeroWeightBorrows()) {
      return Double.compare(a.unweightedRatio, b.unweightedRatio);
    }
    if (a.zeroWeightBorrows()) {
      return 1;
    }
    if (b.zeroWeightBorrows()) {
      return -1;
    }
    return Double.compare(a.weightedShare(), b.weightedShare());
  }

  /** DRS of {@code node} with {@code extra} usage added (null = none). */
  static Drs of(QuotaNode node, FrAmounts extra, FlavorResources idx) {
    if (!node.hasParent()) {
      return new Drs(node.fairWeight, 0, "", false, new int[0]);
    }
    int nRes = idx.resources().size();
    long[] borrowed = new long[nRes];
    java.util.List<Integer> borrowedFrs = new java.util.ArrayList<>();
    for (int fr = 0; fr < node.subtreeQuota.length; fr++) {
      long b = (extra == null ? 0 : extra.get(fr)) + node.usage[fr] - node.subtreeQuota[fr];
      if (b > 0) {
        borrowed[idx.resourceOf(fr)] += b;
        borrowedFrs.add(fr);
      }
    }
    if (borrowedFrs.isEmpty()) {
      return new Drs(node.fairWeight, 0, "", false, new int[0]);
    }
    long[] lendable = new long[nRes];
    for (int fr = 0; fr < node.subtreeQuota.length; fr++) {
      lendable[idx.resourceOf(fr)] += node.parent.potentialAvailable(fr);
    }
    double best = 0;
    String dominant = "";
    for (int r = 0; r < nRes; r++) {
      if (borrowed[r] > 0 && lendable[r] > 0) {
        double ratio = borrowed[r] * 1000.0 / lendable[r];
        String name = idx.resources().name(r);
        if (ratio > best || (ratio == best && name.compareTo(dominant) < 0)) {
          best = ratio;
          dominant = name;
        }
      }
    }
    return new Drs(node.fairWeight, best, dominant, true,
        borrowedFrs.stream().mapToInt(Integer::intValue).toArray());
  }
}
