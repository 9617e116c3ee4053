package batchsim.core.volcano;

import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The resource dimensions the Volcano engine tracks, in Volcano's own units: index 0 is cpu (milli-cores), 1
 * is memory (bytes), the rest are Volcano's "scalar resources", among them {@code pods} (units) and extended
 * resources in milli-units (Volcano's NewResource stores {@code MilliValue()} for them).
 *
 * <p>Like Volcano's NewResource, names that are neither cpu, memory, pods, ephemeral-storage nor a Kubernetes
 * scalar resource name (an extended resource with a domain prefix such as {@code nvidia.com/gpu},
 * {@code hugepages-*}, {@code attachable-volumes-*}) are dropped: Volcano never sees them.
 */
final class Dims {
  static final int CPU = 0;
  static final int MEMORY = 1;
  /** pods is always the third dimension. */
  static final int PODS = 2;
  /** Kubernetes' default pod capacity, used for nodes whose allocatable omits {@code pods}. */
  static final long DEFAULT_NODE_PODS = 110;

  private final List<String> names;
  private final Map<String, Integer> byName = new HashMap<>();
  private final double[] scale;
  private final int[] fromSpace;
  final int pods;
  private final Set<String> ignored = new LinkedHashSet<>();
  private final ResourceSpace space;

  Dims(ResourceSpace space, Iterable<String> extraNames) {
    this.space = space;
    List<String> n = new ArrayList<>(List.of(ResourceSpace.CPU, ResourceSpace.MEMORY, ResourceSpace.PODS));
    for (String s : space.names()) {
      consider(s, n);
    }
    for (String s : extraNames) {
      consider(s, n);
    }
    this.names = List.copyOf(n);
    this.scale = new double[names.size()];
    for (int i = 0; i < names.size(); i++) {
      byName.put(names.get(i), i);
      String s = names.get(i);
      scale[i] = i == CPU || i == MEMORY || s.equals(ResourceSpace.PODS) ? 1 : 1000;
    }
    this.pods = PODS;
    this.fromSpace = new int[space.size()];
    for (int i = 0; i < space.size(); i++) {
      Integer idx = byName.get(space.name(i));
      fromSpace[i] = idx == null ? -1 : idx;
    }
  }

  private void consider(String s, List<String> n) {
    if (n.contains(s)) {
      return;
    }
    if (isVolcanoResource(s)) {
      n.add(s);
    } else {
      ignored.add(s);
    }
  }

  /** Kubernetes v1helper.IsScalarResourceName plus the names NewResource handles itself. */
  static boolean isVolcanoResource(String name) {
    return name.equals(ResourceSpace.CPU) || name.equals(ResourceSpace.MEMORY) || name.equals(ResourceSpace.PODS)
        || name.equals("ephemeral-storage") || name.contains("/") || name.startsWith("hugepages-")
        || name.startsWith("attachable-volumes-");
  }

  ResourceSpace space() {
    return space;
  }

  int size() {
    return names.size();
  }

  String name(int i) {
    return names.get(i);
  }

  /** Index of a tracked resource, or -1. */
  int index(String name) {
    Integer i = byName.get(name);
    return i == null ? -1 : i;
  }

  /** Resource names the engine drops as Volcano would (not Kubernetes resource names). */
  Set<String> ignored() {
    return ignored;
  }

  /** Volcano's api.NewResource(list): present keys stay present even at 0. */
  Res fromList(ResourceList list) {
    Res r = new Res(size());
    for (Map.Entry<String, Long> e : list.amounts().entrySet()) {
      int i = index(e.getKey());
      if (i < 0) {
        if (isVolcanoResource(e.getKey())) {
          throw new IllegalArgumentException("resource " + e.getKey() + " is not in the simulation's resources");
        }
        continue; // Volcano drops names that are not Kubernetes resource names
      }
      if (i == CPU || i == MEMORY) {
        r.v[i] += e.getValue() * scale[i];
      } else {
        r.setScalar(i, r.get(i) + e.getValue() * scale[i]);
      }
    }
    return r;
  }

  /** A pod's request (GetPodResourceRequest): nonzero requests plus {@code pods: 1}. */
  Res request(Resources req) {
    Res r = fromVector(req);
    r.setScalar(pods, r.get(pods) + 1);
    return r;
  }

  /** A node's allocatable; a node without a pods capacity gets Kubernetes' default of 110. */
  Res allocatable(Resources alloc) {
    Res r = fromVector(alloc);
    if (r.get(pods) <= 0) {
      r.setScalar(pods, DEFAULT_NODE_PODS);
    }
    return r;
  }

  private Res fromVector(Resources vec) {
    Res r = new Res(size());
    for (int s = 0; s < fromSpace.length; s++) {
      int i = fromSpace[s];
      long amount = vec.get(s);
      if (i < 0 || amount == 0) {
        continue;
      }
      if (i == CPU || i == MEMORY) {
        r.v[i] = amount * scale[i];
      } else {
        r.setScalar(i, amount * scale[i]);
      }
    }
    return r;
  }

  /** Converts a Volcano-unit amount back to batchsim base units. */
  long toBase(int i, double amount) {
    return Math.round(amount / scale[i]);
  }

  /** Formats a resource for messages: {@code {cpu: 2, memory: 4Gi, pods: 1}}. */
  String format(Res r) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < size(); i++) {
      if (!r.has(i) || (i <= MEMORY && r.v[i] == 0)) {
        continue;
      }
      if (sb.length() > 1) {
        sb.append(", ");
      }
      sb.append(names.get(i)).append(": ");
      double x = r.v[i];
      if (x >= Res.INFINITE_SCALAR) {
        sb.append("inf");
      } else if (i == CPU) {
        sb.append(batchsim.core.model.Quantity.format(ResourceSpace.CPU, Math.round(x)));
      } else if (i == MEMORY) {
        sb.append(batchsim.core.model.Quantity.format(ResourceSpace.MEMORY, Math.round(x)));
      } else {
        double base = x / scale[i];
        sb.append(base == Math.rint(base) ? Long.toString((long) base) : Double.toString(base));
      }
    }
    return sb.append('}').toString();
  }
}
