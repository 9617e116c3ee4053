package batchsim.core.volcano;

import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Builds small Volcano engines for tests: resources cpu (cores), memory (GiB), pods, nvidia.com/gpu. */
final class Fixture {
  static final ResourceSpace RES = ResourceSpace.of(List.of("cpu", "memory", "pods", "nvidia.com/gpu"));
  static final long GI = 1L << 30;

  private Fixture() {}

  /** cpu cores, memory GiB. */
  static Resources req(double cpu, double memGi) {
    return Resources.wrap(new long[] {Math.round(cpu * 1000), Math.round(memGi * GI), 0, 0});
  }

  static Resources req(double cpu, double memGi, long gpu) {
    return Resources.wrap(new long[] {Math.round(cpu * 1000), Math.round(memGi * GI), 0, gpu});
  }

  static ResourceList rl(double cpu, double memGi) {
    return ResourceList.of("cpu", Math.round(cpu * 1000), "memory", Math.round(memGi * GI));
  }

  static VolcanoNodeSpec node(String name, double cpu, double memGi, long pods) {
    return new VolcanoNodeSpec(name, null, null,
        Resources.wrap(new long[] {Math.round(cpu * 1000), Math.round(memGi * GI), pods, 0}));
  }

  static PluginSpec plugin(String name, ExtensionPoint... points) {
    return new PluginSpec(name, points.length == 0 ? EnumSet.noneOf(ExtensionPoint.class) : EnumSet.of(points[0], points),
        false, null);
  }

  static VolcanoConfig config(List<String> actions, PluginSpec... tier) {
    return new VolcanoConfig(actions, null, List.of(List.of(tier)), 1000, 0);
  }

  /** The capacity setup of Volcano's hierarchical tests (capacity_test.go). */
  static VolcanoConfig capacityTest(boolean hierarchy, List<String> actions) {
    PluginSpec cap = new PluginSpec("capacity", EnumSet.of(ExtensionPoint.ALLOCATABLE, ExtensionPoint.PREEMPTIVE,
        ExtensionPoint.RECLAIMABLE, ExtensionPoint.QUEUE_ORDER, ExtensionPoint.JOB_ENQUEUED), hierarchy, null);
    return config(actions, cap, plugin("predicates", ExtensionPoint.PREDICATE),
        plugin("gang", ExtensionPoint.JOB_STARVING));
  }

  static VolcanoEngine engine(VolcanoConfig config, List<VolcanoQueueSpec> queues, VolcanoNodeSpec... nodes) {
    return new VolcanoEngine(RES, config, queues, List.of(nodes), () -> 0L).checked(true);
  }

  static PodGroup pg(VolcanoEngine e, String id, String queue, int minMember, ResourceList min, PodGroupPhase phase) {
    return e.addPodGroup(new PodGroupSpec(id, queue, minMember, null, min, 0, 0), phase);
  }

  static Pod pod(VolcanoEngine e, String id, String pg, Resources req) {
    return e.addPod(PodSpec.of(id, pg, req));
  }

  static List<String> binds(SessionOutcome o) {
    List<String> out = new ArrayList<>();
    for (SessionOutcome.Bind b : o.binds()) {
      out.add(b.pod().id() + "->" + b.node());
    }
    return out;
  }

  static List<String> evictions(SessionOutcome o) {
    List<String> out = new ArrayList<>();
    for (SessionOutcome.Eviction ev : o.evictions()) {
      out.add(ev.pod().id());
    }
    return out;
  }

  static Set<String> all(String... s) {
    return Set.of(s);
  }
}
