package batchsim.core.kueue;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ResourceSpace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The quota tree (Kueue pkg/cache: cohorts and ClusterQueues as resource nodes): built from the specs, with
 * each node's nominal, borrowing and lending limits, and the subtree quotas and cohort usage derived bottom-up.
 */
final class QuotaTree {
  private final FlavorResources index;
  final List<ClusterQueue> queues = new ArrayList<>();
  final Map<String, ClusterQueue> queuesByName = new LinkedHashMap<>();
  final Map<String, Cohort> cohorts = new LinkedHashMap<>();

  QuotaTree(FlavorResources index, List<CohortSpec> cohortSpecs, List<ClusterQueueSpec> cqSpecs) {
    this.index = index;
    int frs = index.size();
    for (CohortSpec c : cohortSpecs) {
      Cohort node = new Cohort(c.name(), c.fairWeight(), frs);
      applyQuotas(node, c.resourceGroups());
      cohorts.put(c.name(), node);
    }
    for (ClusterQueueSpec s : cqSpecs) {
      if (s.cohort() != null) {
        cohorts.computeIfAbsent(s.cohort(), n -> new Cohort(n, 1.0, frs));
      }
    }
    for (CohortSpec c : cohortSpecs) {
      if (c.parent() != null) {
        Cohort parent = cohorts.computeIfAbsent(c.parent(), n -> new Cohort(n, 1.0, frs));
        Cohort child = cohorts.get(c.name());
        child.parent = parent;
        parent.childCohorts.add(child);
      }
    }
    int podsIdx = index.resources().indexOf(ResourceSpace.PODS);
    for (ClusterQueueSpec s : cqSpecs) {
      ClusterQueue q = new ClusterQueue(s, queues.size(), frs, index.resources().size(), podsIdx);
      for (ResourceGroupSpec g : s.resourceGroups()) {
        int[] covered = g.coveredResources().stream().mapToInt(index.resources()::require).toArray();
        int[] fl = g.flavors().stream().mapToInt(f -> requireFlavor(f.flavor())).toArray();
        for (int r : covered) {
          q.groupOfResource[r] = q.groups.size();
        }
        q.groups.add(new ResourceGroup(covered, fl));
      }
      applyQuotas(q, s.resourceGroups());
      if (s.cohort() != null) {
        Cohort parent = cohorts.get(s.cohort());
        q.parent = parent;
        parent.childQueues.add(q);
      }
      queues.add(q);
      queuesByName.put(s.name(), q);
    }
    for (Cohort c : cohorts.values()) {
      if (inCycle(c)) {
        throw new IllegalArgumentException("cohort " + c.name + " is part of a cycle");
      }
    }
    for (Cohort c : cohorts.values()) {
      if (c.parent == null) {
        computeSubtree(c);
      }
    }
    for (ClusterQueue q : queues) {
      if (q.parent == null) {
        System.arraycopy(q.nominal, 0, q.subtreeQuota, 0, frs);
      }
    }
  }

  private int requireFlavor(String name) {
    int f = index.flavorIndex(name);
    if (f < 0) {
      throw new IllegalArgumentException("unknown flavor " + name);
    }
    return f;
  }

  private static boolean inCycle(Cohort c) {
    Set<Cohort> seen = new java.util.HashSet<>();
    for (Cohort p = c; p != null; p = p.parent) {
      if (!seen.add(p)) {
        return true;
      }
    }
    return false;
  }

  private void applyQuotas(QuotaNode node, List<ResourceGroupSpec> groups) {
    for (ResourceGroupSpec g : groups) {
      for (FlavorQuotaSpec fq : g.flavors()) {
        int f = requireFlavor(fq.flavor());
        for (Map.Entry<String, QuotaSpec> e : fq.resources().entrySet()) {
          int fr = index.fr(f, index.resources().require(e.getKey()));
          QuotaSpec q = e.getValue();
          node.nominal[fr] = q.nominal();
          node.borrowingLimit[fr] = q.hasBorrowingLimit() ? q.borrowingLimit() : QuotaNode.NO_LIMIT;
          node.lendingLimit[fr] = q.hasLendingLimit() ? q.lendingLimit() : QuotaNode.NO_LIMIT;
        }
      }
    }
  }

  /** Kueue updateCohortResourceNode: subtree quotas and usage, bottom-up; also the cohort heights. */
  private void computeSubtree(Cohort c) {
    int frs = index.size();
    System.arraycopy(c.nominal, 0, c.subtreeQuota, 0, frs);
    java.util.Arrays.fill(c.usage, 0);
    int height = c.childCohorts.isEmpty() && c.childQueues.isEmpty() ? 0 : 1;
    for (Cohort child : c.childCohorts) {
      computeSubtree(child);
      height = Math.max(height, child.height + 1);
      accumulate(c, child);
    }
    for (ClusterQueue q : c.childQueues) {
      System.arraycopy(q.nominal, 0, q.subtreeQuota, 0, frs);
      accumulate(c, q);
    }
    c.height = height;
  }

  private void accumulate(Cohort parent, QuotaNode child) {
    for (int fr = 0; fr < index.size(); fr++) {
      parent.subtreeQuota[fr] += child.subtreeQuota[fr] - child.localQuota(fr);
      parent.usage[fr] += Math.max(0, child.usage[fr] - child.localQuota(fr));
    }
  }

  /** Recomputes subtree quotas (and cohort usage) of the tree a ClusterQueue belongs to. */
  void recomputeTree(ClusterQueue q) {
    if (q.parent == null) {
      System.arraycopy(q.nominal, 0, q.subtreeQuota, 0, index.size());
    } else {
      computeSubtree(q.root());
    }
  }
}
