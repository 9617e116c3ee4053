package batchsim.workloads.trace;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link TraceMapping} compiled against a run's resource names. Pod sets of jobs that differ only in
 * size are shared (traces have few distinct sizes), so mapping allocates little per job.
 */
final class Mapper {
  static final String MAIN = "main";
  static final String REST = "rest";

  private final TraceMapping m;
  private final ResourceSpace space;
  private final long[] perUnit;
  private final long[] perPod;
  private final Map<Integer, List<PodSetSpec>> bySize = new HashMap<>();

  Mapper(TraceMapping mapping, ResourceSpace space) {
    this.m = mapping;
    this.space = space;
    this.perUnit = vector(mapping.shape().perUnit());
    this.perPod = vector(mapping.shape().perPod());
  }

  private long[] vector(Map<String, Long> amounts) {
    long[] v = new long[space.size()];
    amounts.forEach((k, a) -> v[space.require(k)] += a);
    return v;
  }

  WorkloadSpec map(TraceJob j, long createdMs) {
    String pc = m.priorityClass().resolve(j);
    int priority = pc == null ? 0 : m.priorityValues().getOrDefault(pc, 0);
    String cls = m.classFrom() == null ? m.name() : j.attribute(m.classFrom());
    return new WorkloadSpec(m.name() + "-" + j.id(), cls, m.queue().resolve(j), createdMs, priority,
        pc == null || pc.isEmpty() ? null : pc, podSets(j), runtime(j));
  }

  long runtime(TraceJob j) {
    long r = m.requestedRuntime() && j.requestedMs() >= 0 ? j.requestedMs() : j.runtimeMs();
    return m.runtimeScale() == 1 ? r : Math.round(r * m.runtimeScale());
  }

  List<PodSetSpec> podSets(TraceJob j) {
    if (j.perPod().isEmpty()) {
      return bySize.computeIfAbsent(j.units(), u -> build(u, null));
    }
    return build(j.units(), vector(j.perPod()));
  }

  private List<PodSetSpec> build(int units, long[] explicit) {
    long[][] groups = m.shape().split(units);
    List<PodSetSpec> out = new ArrayList<>(groups.length);
    for (int g = 0; g < groups.length; g++) {
      long[] pod = new long[space.size()];
      for (int r = 0; r < pod.length; r++) {
        pod[r] = Math.addExact(Math.multiplyExact(perUnit[r], groups[g][1]), perPod[r])
            + (explicit == null ? 0 : explicit[r]);
      }
      out.add(PodSetSpec.of(g == 0 ? MAIN : REST, (int) groups[g][0], Resources.wrap(pod)));
    }
    return List.copyOf(out);
  }

  /** The names of the resources a job's pods request (non-zero), for validation. */
  List<String> requested(TraceJob j) {
    List<String> out = new ArrayList<>();
    List<PodSetSpec> ps = podSets(j);
    for (int r = 0; r < space.size(); r++) {
      for (PodSetSpec p : ps) {
        if (p.perPod().get(r) > 0) {
          out.add(space.name(r));
          break;
        }
      }
    }
    return out;
  }
}
