package batchsim.core.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The resource names of one simulation, interned to dense indices so that requests, quotas and node
 * capacity are plain {@code long[]} vectors. Index order is the order of first registration, which the
 * scenario loader makes deterministic (cpu, memory, pods first, then names as they appear).
 *
 * <p>Units: {@code cpu} in milli-cores, {@code memory} and {@code ephemeral-storage} in bytes, everything
 * else (GPUs, {@code pods}, extended resources) in units.
 */
public final class ResourceSpace {
  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";
  public static final String PODS = "pods";

  private final List<String> names;
  private final Map<String, Integer> index;

  private ResourceSpace(List<String> names) {
    this.names = List.copyOf(names);
    Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      if (m.put(names.get(i), i) != null) {
        throw new IllegalArgumentException("duplicate resource name " + names.get(i));
      }
    }
    this.index = Collections.unmodifiableMap(m);
  }

  public static ResourceSpace of(List<String> names) {
    return new ResourceSpace(names);
  }

  /** Builder that keeps first-seen order. */
  public static final class Builder {
    private final List<String> names = new ArrayList<>();

    public Builder add(String name) {
      if (!names.contains(name)) {
        names.add(name);
      }
      return this;
    }

    public ResourceSpace build() {
      return new ResourceSpace(names);
    }
  }

  public int size() {
    return names.size();
  }

  public String name(int i) {
    return names.get(i);
  }

  public List<String> names() {
    return names;
  }

  /** Index of a resource, or -1 when the simulation does not know it. */
  public int indexOf(String name) {
    Integer i = index.get(name);
    return i == null ? -1 : i;
  }

  public int require(String name) {
    int i = indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException("unknown resource " + name);
    }
    return i;
  }

  /** Builds a vector from a name → amount map (amounts already in base units). */
  public Resources vector(Map<String, Long> amounts) {
    long[] v = new long[size()];
    amounts.forEach((k, val) -> v[require(k)] = val);
    return Resources.wrap(v);
  }

  /** Formats an amount of resource {@code i} in its usual unit (cores, Gi, units). */
  public String format(int i, long amount) {
    return Quantity.format(name(i), amount);
  }
}
