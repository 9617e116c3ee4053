package batchsim.workloads;

import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Individually listed workloads, replayed in creation-time order (ties keep list order). A workload whose
 * runtime is a distribution draws it from the source's random stream when the run opens; one already
 * running at the start (a {@link batchsim.core.model.Reservation} with a start time) draws what is left of it,
 * conditioned on the time it has run.
 */
public record WorkloadList(String name, List<Entry> entries) implements WorkloadSourceSpec {
  /** A listed workload; {@code runtime} null: the spec's own {@code runtimeMs}. */
  public record Entry(WorkloadSpec spec, Distribution runtime) {}

  public WorkloadList {
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingLong(e -> e.spec().createdMs())); // stable
    entries = List.copyOf(sorted);
  }

  /** Workloads with fixed runtimes. */
  public static WorkloadList of(String name, List<WorkloadSpec> workloads) {
    return new WorkloadList(name, workloads.stream().map(w -> new Entry(w, null)).toList());
  }

  /** The listed workloads as written (runtimes not drawn yet). */
  public List<WorkloadSpec> workloads() {
    return entries.stream().map(Entry::spec).toList();
  }

  @Override
  public WorkloadSource open(SplittableRandom random) {
    Iterator<Entry> it = entries.iterator();
    return () -> it.hasNext() ? drawn(it.next(), random) : null;
  }

  private static WorkloadSpec drawn(Entry e, SplittableRandom random) {
    WorkloadSpec s = e.spec();
    if (e.runtime() == null) {
      return s;
    }
    return s.withRuntime(s.reservation() != null ? e.runtime().remainingAfter(random, s.reservation().elapsedMs())
        : e.runtime().sample(random));
  }
}
