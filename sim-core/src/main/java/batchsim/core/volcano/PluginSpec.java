package batchsim.core.volcano;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One plugin in a tier of the scheduler configuration.
 *
 * @param name capacity, proportion, gang, priority, drf, predicates, nodeorder, overcommit, conformance, or the
 *     test plugin {@code test-rejecter}
 * @param enabled the extension points switched on
 * @param hierarchy {@code enableHierarchy} (capacity's hierarchical queues)
 * @param arguments plugin arguments, e.g. {@code ancestorReclaimLevel}, {@code overcommit-factor}
 */
public record PluginSpec(String name, Set<ExtensionPoint> enabled, boolean hierarchy, SortedMap<String, String> arguments) {
  public PluginSpec {
    enabled = enabled == null || enabled.isEmpty() ? Collections.unmodifiableSet(EnumSet.noneOf(ExtensionPoint.class))
        : Collections.unmodifiableSet(EnumSet.copyOf(enabled));
    arguments = Collections.unmodifiableSortedMap(new TreeMap<>(arguments == null ? Map.of() : arguments));
  }

  /** A plugin as a real configuration has it: every extension point on, hierarchy off. */
  public static PluginSpec defaults(String name) {
    return new PluginSpec(name, EnumSet.allOf(ExtensionPoint.class), false, null);
  }

  public boolean isEnabled(ExtensionPoint p) {
    return enabled.contains(p);
  }

  public String argument(String key) {
    return arguments.get(key);
  }

  public PluginSpec withHierarchy(boolean h) {
    return new PluginSpec(name, enabled, h, arguments);
  }

  public PluginSpec withArgument(String key, String value) {
    TreeMap<String, String> a = new TreeMap<>(arguments);
    a.put(key, value);
    return new PluginSpec(name, enabled, hierarchy, a);
  }
}
