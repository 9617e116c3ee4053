package batchsim.core.volcano;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A Kubernetes ResourceList as Volcano reads it from a Queue or PodGroup: resource name to amount in batchsim
 * base units (cpu in milli-cores, memory in bytes, everything else in units). Unlike {@code Resources}, a
 * name that is present with amount 0 differs from an absent name: Volcano's quota helpers treat an absent
 * scalar as unset (unlimited, or "not part of deserved"), a present one as a value.
 */
public record ResourceList(SortedMap<String, Long> amounts) {
  public static final ResourceList EMPTY = new ResourceList(new TreeMap<>());

  public ResourceList {
    amounts = Collections.unmodifiableSortedMap(new TreeMap<>(amounts));
    for (Map.Entry<String, Long> e : amounts.entrySet()) {
      if (e.getValue() == null || e.getValue() < 0) {
        throw new IllegalArgumentException("resource " + e.getKey() + " must not be negative");
      }
    }
  }

  /** Builds a list from alternating names and amounts, e.g. {@code of("cpu", 2000L, "memory", 1L << 30)}. */
  public static ResourceList of(Object... nameAmount) {
    TreeMap<String, Long> m = new TreeMap<>();
    for (int i = 0; i < nameAmount.length; i += 2) {
      m.put((String) nameAmount[i], ((Number) nameAmount[i + 1]).longValue());
    }
    return new ResourceList(m);
  }

  public boolean isEmpty() {
    return amounts.isEmpty();
  }

  public boolean has(String name) {
    return amounts.containsKey(name);
  }

  public long get(String name) {
    Long v = amounts.get(name);
    return v == null ? 0 : v;
  }
}
