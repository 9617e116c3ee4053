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

  /** The Cohort objects that exist (declared, not deleted), in declaration order; the others are implicit. */
  final Map<String, CohortSpec> cohortSpecs = new LinkedHashMap<>();

  QuotaTree(FlavorResources index, List<CohortSpec> cohortSpecs, List<ClusterQueueSpec> cqSpecs) {
    this.index = index;
    int frs = index.size();
    for (CohortSpec c : cohortSpecs) {
      cohorts.put(c.name(), new Cohort(c.name(), c.fairWeight(), frs));
      if (!c.implicit()) {
        this.cohortSpecs.put(c.name(), c); // an implicit cohort is no object: relink makes it when named
      }
    }
    int podsIdx = index.resources().indexOf(ResourceSpace.PODS);
    for (ClusterQueueSpec s : cqSpecs) {
      ClusterQueue q = new ClusterQueue(s, queues.size(), frs, index.resources().size(), podsIdx);
      configure(q, s);
      queues.add(q);
      queuesByName.put(s.name(), q);
    }
    relink();
  }

  /** Sets a ClusterQueue's spec: its resource groups, quotas and weight (the tree is relinked separately). */
  void configure(ClusterQueue q, ClusterQueueSpec s) {
    q.spec = s;
    q.fairWeight = s.fairWeight();
    q.groups.clear();
    java.util.Arrays.fill(q.groupOfResource, -1);
    boolean pods = false;
    for (ResourceGroupSpec g : s.resourceGroups()) {
      int[] covered = g.coveredResources().stream().mapToInt(index.resources()::require).toArray();
      int[] fl = g.flavors().stream().mapToInt(f -> requireFlavor(f.flavor())).toArray();
      for (int r : covered) {
        q.groupOfResource[r] = q.groups.size();
      }
      q.groups.add(new ResourceGroup(covered, fl));
      pods |= g.coveredResources().contains(ResourceSpace.PODS);
    }
    q.coversPods = pods && q.podsResource >= 0;
    java.util.Arrays.fill(q.nominal, 0);
    java.util.Arrays.fill(q.borrowingLimit, QuotaNode.NO_LIMIT);
    java.util.Arrays.fill(q.lendingLimit, QuotaNode.NO_LIMIT);
    applyQuotas(q, s.resourceGroups());
  }

  /**
   * The cohort a set of specs would give each cohort, checked for cycles before anything changes (Kueue's
   * hierarchy manager). Returns the cohort in a cycle, or null.
   */
  String cycleWith(Map<String, CohortSpec> specs) {
    for (String start : specs.keySet()) {
      Set<String> seen = new java.util.HashSet<>();
      for (String c = start; c != null; c = specs.containsKey(c) ? specs.get(c).parent() : null) {
        if (!seen.add(c)) {
          return start;
        }
      }
    }
    return null;
  }

  /**
   * Links the tree from the current specs (Kueue's hierarchy manager on every ClusterQueue or Cohort
   * event): each existing Cohort object's quotas, weight and parent; each ClusterQueue in the tree under its
   * cohortName. A cohort named but not declared exists implicitly, without quota or parent. Subtree quotas
   * and cohort usage are then derived bottom-up.
   */
  void relink() {
    int frs = index.size();
    for (Cohort c : cohorts.values()) {
      c.parent = null;
      c.childCohorts.clear();
      c.childQueues.clear();
      java.util.Arrays.fill(c.nominal, 0);
      java.util.Arrays.fill(c.borrowingLimit, QuotaNode.NO_LIMIT);
      java.util.Arrays.fill(c.lendingLimit, QuotaNode.NO_LIMIT);
      c.fairWeight = 1.0;
    }
    for (CohortSpec c : cohortSpecs.values()) {
      Cohort node = cohorts.computeIfAbsent(c.name(), n -> new Cohort(n, 1.0, frs));
      node.fairWeight = c.fairWeight();
      applyQuotas(node, c.resourceGroups());
    }
    for (ClusterQueue q : queues) {
      q.parent = null;
      if (!q.gone && q.spec.cohort() != null) {
        cohorts.computeIfAbsent(q.spec.cohort(), n -> new Cohort(n, 1.0, frs));
      }
    }
    for (CohortSpec c : cohortSpecs.values()) {
      if (c.parent() != null) {
        Cohort parent = cohorts.computeIfAbsent(c.parent(), n -> new Cohort(n, 1.0, frs));
        Cohort child = cohorts.get(c.name());
        child.parent = parent;
        parent.childCohorts.add(child);
      }
    }
    for (ClusterQueue q : queues) {
      if (!q.gone && q.spec.cohort() != null) {
        Cohort parent = cohorts.get(q.spec.cohort());
        q.parent = parent;
        parent.childQueues.add(q);
      }
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
