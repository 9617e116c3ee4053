package batchsim.core.volcano;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Volcano scheduler configuration.
 *
 * @param actions the actions each session runs, in order (enqueue, allocate, backfill, reclaim, preempt)
 * @param configuredActions the actions Volcano considers configured ({@code conf.EnabledActionMap}); allocate
 *     moves Pending PodGroups to Inqueue itself only when {@code enqueue} is not among them. Usually the same
 *     as {@code actions}.
 * @param tiers plugin tiers in order
 * @param schedulePeriodMs virtual time between sessions ({@code --schedule-period}, default 1 s)
 * @param bindDelayMs time from a bind being issued to the pod running there, for the host to model
 */
public record VolcanoConfig(
    List<String> actions,
    Set<String> configuredActions,
    List<List<PluginSpec>> tiers,
    long schedulePeriodMs,
    long bindDelayMs) {

  public static final List<String> KNOWN_ACTIONS = List.of("enqueue", "allocate", "backfill", "reclaim", "preempt");

  public VolcanoConfig {
    actions = List.copyOf(actions);
    for (String a : actions) {
      if (!KNOWN_ACTIONS.contains(a)) {
        throw new IllegalArgumentException("unknown Volcano action '" + a + "' (known: " + KNOWN_ACTIONS + ")");
      }
    }
    configuredActions = Set.copyOf(new TreeSet<>(configuredActions == null ? actions : configuredActions));
    List<List<PluginSpec>> t = new java.util.ArrayList<>();
    for (List<PluginSpec> tier : tiers) {
      t.add(List.copyOf(tier));
    }
    tiers = List.copyOf(t);
    if (schedulePeriodMs <= 0) {
      throw new IllegalArgumentException("schedulePeriodMs must be positive");
    }
    if (bindDelayMs < 0) {
      throw new IllegalArgumentException("bindDelayMs must not be negative");
    }
  }

  /**
   * Volcano's built-in default (pkg/scheduler/util.go DefaultSchedulerConf): actions enqueue, allocate,
   * backfill; tier 1 priority, gang, conformance; tier 2 overcommit, drf, predicates, proportion, nodeorder;
   * every extension point on; 1 s period; binds complete instantly.
   */
  public static VolcanoConfig defaults() {
    return new VolcanoConfig(List.of("enqueue", "allocate", "backfill"), null,
        List.of(List.of(PluginSpec.defaults("priority"), PluginSpec.defaults("gang"), PluginSpec.defaults("conformance")),
            List.of(PluginSpec.defaults("overcommit"), PluginSpec.defaults("drf"), PluginSpec.defaults("predicates"),
                PluginSpec.defaults("proportion"), PluginSpec.defaults("nodeorder"))),
        1_000, 0);
  }

  /**
   * The capacity-plugin setup Volcano's user guide recommends (how_to_use_capacity_plugin.md): actions
   * enqueue, allocate, backfill, reclaim; capacity in place of proportion; {@code hierarchy} switches on
   * hierarchical queues.
   */
  public static VolcanoConfig capacity(boolean hierarchy) {
    return new VolcanoConfig(List.of("enqueue", "allocate", "backfill", "reclaim"), null,
        List.of(List.of(PluginSpec.defaults("priority"), PluginSpec.defaults("gang"), PluginSpec.defaults("conformance")),
            List.of(PluginSpec.defaults("drf"), PluginSpec.defaults("predicates"),
                PluginSpec.defaults("capacity").withHierarchy(hierarchy), PluginSpec.defaults("nodeorder"))),
        1_000, 0);
  }

  public VolcanoConfig withBindDelayMs(long ms) {
    return new VolcanoConfig(actions, configuredActions, tiers, schedulePeriodMs, ms);
  }

  public VolcanoConfig withSchedulePeriodMs(long ms) {
    return new VolcanoConfig(actions, configuredActions, tiers, ms, bindDelayMs);
  }

  /** True when capacity runs with enableHierarchy. */
  public boolean hierarchical() {
    for (List<PluginSpec> tier : tiers) {
      for (PluginSpec p : tier) {
        if (p.name().equals("capacity") && p.hierarchy()) {
          return true;
        }
      }
    }
    return false;
  }
}
