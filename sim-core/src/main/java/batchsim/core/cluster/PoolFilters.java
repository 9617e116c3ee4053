package batchsim.core.cluster;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.Toleration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kube-scheduler filter of a pod set as its pools declare them: the pod set's node selector and
 * tolerations with its assigned flavors' node labels and tolerations, and which pools' nodes pass. Working
 * it out visits every pool, so it is kept per pod set (by identity: the generated workloads of a class
 * share theirs) and flavors, instead of once per admission. Bounded; a flavor edit clears it.
 */
final class PoolFilters {
  /** A pod set's node requirements and the pools whose nodes pass them (shared between workloads: read only). */
  record Filter(NodeRequirements needs, boolean[] poolOk) {}

  /** Flavor indices compared by content. */
  private record Flavors(int[] of) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Flavors f && Arrays.equals(f.of, of);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(of);
    }
  }

  private static final int LIMIT = 1024; // traces: a pod set per job

  private final ClusterState cluster;
  private final List<ResourceFlavorSpec> flavors;
  private final Map<PodSetSpec, Map<Flavors, Filter>> filters = new IdentityHashMap<>();

  PoolFilters(ClusterState cluster, List<ResourceFlavorSpec> flavors) {
    this.cluster = cluster;
    this.flavors = new ArrayList<>(flavors);
  }

  /** A ResourceFlavor changed: pods admitted from now on get its labels and tolerations. */
  void flavorChanged(int index, ResourceFlavorSpec spec) {
    flavors.set(index, spec);
    filters.clear();
  }

  /** The filter of pod set {@code ps} with {@code flavorOf[r]} the flavor assigned to resource r. */
  Filter filter(PodSetSpec ps, int[] flavorOf) {
    if (filters.size() > LIMIT) {
      filters.clear();
    }
    Map<Flavors, Filter> byFlavors = filters.computeIfAbsent(ps, k -> new HashMap<>());
    Filter f = byFlavors.get(new Flavors(flavorOf));
    if (f == null) {
      NodeRequirements needs = requirements(ps, flavorOf);
      f = new Filter(needs, poolFilter(needs));
      byFlavors.put(new Flavors(flavorOf.clone()), f);
    }
    return f;
  }

  /** The podSet's node selector and the assigned flavors' node labels; its tolerations and the flavors'. */
  private NodeRequirements requirements(PodSetSpec ps, int[] flavorOf) {
    List<ResourceFlavorSpec> assigned = new ArrayList<>();
    for (int f : flavorOf) {
      if (f >= 0 && !assigned.contains(flavors.get(f))) {
        assigned.add(flavors.get(f));
      }
    }
    List<Toleration> tolerations = new ArrayList<>(ps.tolerations());
    List<Map<String, String>> selectors = new ArrayList<>();
    for (ResourceFlavorSpec f : assigned) {
      tolerations.addAll(f.tolerations());
      selectors.add(f.nodeLabels());
    }
    selectors.add(ps.nodeSelector());
    return new NodeRequirements(List.copyOf(selectors), List.copyOf(tolerations));
  }

  /** Which pools' nodes pass the filter as their pool declares them (an empty pool may grow). */
  private boolean[] poolFilter(NodeRequirements needs) {
    boolean[] ok = new boolean[cluster.pools.size()];
    for (int p = 0; p < ok.length; p++) {
      var pool = cluster.pools.get(p);
      ok[p] = needs.matches(pool.labels(), pool.taints());
    }
    return ok;
  }
}
