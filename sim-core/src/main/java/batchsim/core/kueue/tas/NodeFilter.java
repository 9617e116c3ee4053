package batchsim.core.kueue.tas;

import batchsim.core.model.Taint;
import batchsim.core.model.Toleration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/** Which leaves of a TAS flavor's tree a podSet may not use: its node selector and untolerated taints. */
final class NodeFilter {
  private final TasFlavorSnapshot s;
  private final Map<FilterKey, Filter> filterCache = new HashMap<>();

  NodeFilter(TasFlavorSnapshot s) {
    this.s = s;
  }

  /** Kueue's per-node filter inputs: the podSet's node selector and tolerations (plus the flavor's). */
  record FilterKey(SortedMap<String, String> selector, List<Toleration> tolerations) {}

  /** Per leaf: null when the node passes, else the exclusion reason (Kueue NodeExclusionStats keys). */
  record Filter(int generation, String[] excluded, Map<String, Integer> counts, int nodeSelector) {}

  /**
   * Kueue scheduling_simulator_default: with hostname as the lowest level, a node with an untolerated
   * NoSchedule/NoExecute taint or a nodeSelector mismatch is excluded (taints checked first). Cached per
   * (selector, tolerations), as Kueue caches match results (TASCacheNodeMatchResults). Null = no exclusion.
   */
  Filter filter(SortedMap<String, String> selector, List<Toleration> podTolerations) {
    if (!s.hostnameLowest) {
      return null;
    }
    FilterKey key = new FilterKey(selector, podTolerations);
    Filter f = filterCache.get(key);
    if (f != null && f.generation() == s.tree.generation) {
      return f;
    }
    List<Toleration> all = new ArrayList<>(podTolerations);
    all.addAll(s.tolerations);
    String[] excluded = new String[s.tree.leaves.size()];
    Map<String, Integer> taintCounts = new LinkedHashMap<>();
    int bySelector = 0;
    boolean any = false;
    for (Domain leaf : s.tree.leaves) {
      TasNode n = s.firstNode(leaf);
      String why = null;
      for (Taint t : n.taints()) {
        if (t.isHard() && !Toleration.toleratesAll(List.of(t), all)) {
          why = "taint \"" + t.key() + (t.value() == null || t.value().isEmpty() ? "" : "=" + t.value()) + ":"
              + t.effect() + "\"";
          taintCounts.merge(why, 1, Integer::sum);
          break;
        }
      }
      if (why == null) {
        for (Map.Entry<String, String> e : selector.entrySet()) {
          if (!e.getValue().equals(n.labels().get(e.getKey()))) {
            why = "nodeSelector";
            bySelector++;
            break;
          }
        }
      }
      excluded[leaf.leafIdx] = why;
      any |= why != null;
    }
    f = new Filter(s.tree.generation, any ? excluded : null, taintCounts, bySelector);
    if (filterCache.size() > 1024) {
      filterCache.clear();
    }
    filterCache.put(key, f);
    return f;
  }
}
