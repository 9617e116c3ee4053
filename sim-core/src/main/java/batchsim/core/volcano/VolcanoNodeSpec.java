package batchsim.core.volcano;

import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.Resources;
import batchsim.core.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** One node as Volcano sees it: allocatable resources in batchsim base units, labels and taints. */
public record VolcanoNodeSpec(String name, SortedMap<String, String> labels, List<Taint> taints, Resources allocatable) {
  public VolcanoNodeSpec {
    labels = labels == null ? new TreeMap<>() : new TreeMap<>(labels);
    taints = taints == null ? List.of() : List.copyOf(taints);
  }

  /** Expands node pools the way the cluster model names them: {@code <pool>-<i>}, with the hostname label. */
  public static List<VolcanoNodeSpec> fromPools(List<NodePoolSpec> pools) {
    List<VolcanoNodeSpec> out = new ArrayList<>();
    for (NodePoolSpec p : pools) {
      for (int i = 0; i < p.count(); i++) {
        String name = p.name() + "-" + i;
        TreeMap<String, String> labels = new TreeMap<>(p.labels());
        labels.put("kubernetes.io/hostname", name);
        out.add(new VolcanoNodeSpec(name, labels, p.taints(), p.allocatable()));
      }
    }
    return out;
  }
}
