package batchsim.core.kueue;

/**
 * A ClusterQueue or Cohort in the quota tree, with Kueue's resource-node arithmetic.
 *
 * <p>Port of {@code pkg/cache/scheduler/resource_node.go} @ ff69552e: {@code subtreeQuota} of a cohort is
 * its own nominal plus each child's subtree quota minus the child's local (never-lent) quota; usage above
 * a node's local quota is stored in its parent. Limits equal to {@link #NO_LIMIT} are unset.
 */
abstract class QuotaNode {
  static final long NO_LIMIT = -1;

  final String name;
  Cohort parent;
  /** fairSharing.weight; a spec update may change it. */
  double fairWeight;
  /** The node's own nominal quota per fr (a cohort's own resourceGroups). */
  final long[] nominal;
  final long[] borrowingLimit;
  final long[] lendingLimit;
  final long[] subtreeQuota;
  final long[] usage;

  QuotaNode(String name, double fairWeight, int frCount) {
    this.name = name;
    this.fairWeight = fairWeight;
    this.nominal = new long[frCount];
    this.borrowingLimit = new long[frCount];
    this.lendingLimit = new long[frCount];
    this.subtreeQuota = new long[frCount];
    this.usage = new long[frCount];
    java.util.Arrays.fill(borrowingLimit, NO_LIMIT);
    java.util.Arrays.fill(lendingLimit, NO_LIMIT);
  }

  final boolean hasParent() {
    return parent != null;
  }

  /** Quota never visible to the parent: subtreeQuota - lendingLimit when a lending limit is set. */
  final long localQuota(int fr) {
    long ll = lendingLimit[fr];
    return ll == NO_LIMIT ? 0 : Math.max(0, subtreeQuota[fr] - ll);
  }

  final long localAvailable(int fr) {
    return Math.max(0, localQuota(fr) - usage[fr]);
  }

  /** Unclamped Kueue {@code available}: what this node could still take, counting what ancestors lend. */
  final long available(int fr) {
    if (parent == null) {
      return subtreeQuota[fr] - usage[fr];
    }
    long parentAvailable = parent.available(fr);
    long bl = borrowingLimit[fr];
    if (bl != NO_LIMIT) {
      long lq = localQuota(fr);
      long storedInParent = subtreeQuota[fr] - lq;
      long usedInParent = Math.max(0, usage[fr] - lq);
      parentAvailable = Math.min(storedInParent - usedInParent + bl, parentAvailable);
    }
    return localAvailable(fr) + parentAvailable;
  }

  /** The most this node could ever get of fr with no usage anywhere. */
  final long potentialAvailable(int fr) {
    if (parent == null) {
      return subtreeQuota[fr];
    }
    long avail = localQuota(fr) + parent.potentialAvailable(fr);
    long bl = borrowingLimit[fr];
    if (bl != NO_LIMIT) {
      avail = Math.min(subtreeQuota[fr] + bl, avail);
    }
    return avail;
  }

  /** Adds usage; the part above the local free quota is pushed to the parent, recursively. */
  final void addUsage(int fr, long val) {
    long localAvailable = localAvailable(fr);
    usage[fr] += val;
    if (parent != null && val > localAvailable) {
      parent.addUsage(fr, val - localAvailable);
    }
  }

  final void removeUsage(int fr, long val) {
    long storedInParent = usage[fr] - localQuota(fr);
    usage[fr] -= val;
    if (storedInParent <= 0 || parent == null) {
      return;
    }
    parent.removeUsage(fr, Math.min(val, storedInParent));
  }

  final void addUsage(FrAmounts a) {
    for (int i = 0; i < a.frs.length; i++) {
      addUsage(a.frs[i], a.amounts[i]);
    }
  }

  final void removeUsage(FrAmounts a) {
    for (int i = 0; i < a.frs.length; i++) {
      removeUsage(a.frs[i], a.amounts[i]);
    }
  }

  /** Kueue BorrowingWith: usage + val would exceed the node's (subtree) quota. */
  final boolean borrowingWith(int fr, long val) {
    return subtreeQuota[fr] < usage[fr] + val;
  }

  final boolean withinNominal(int[] frs) {
    for (int fr : frs) {
      if (subtreeQuota[fr] < usage[fr]) {
        return false;
      }
    }
    return true;
  }

  Cohort root() {
    QuotaNode n = this;
    while (n.parent != null) {
      n = n.parent;
    }
    return (Cohort) n;
  }

  abstract boolean isClusterQueue();
}
