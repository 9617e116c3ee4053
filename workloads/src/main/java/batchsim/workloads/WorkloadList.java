package batchsim.workloads;

import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;

/** Individually listed workloads, replayed in creation-time order (ties keep list order). */
public record WorkloadList(String name, List<WorkloadSpec> workloads) implements WorkloadSourceSpec {
  public WorkloadList {
    List<WorkloadSpec> sorted = new ArrayList<>(workloads);
    sorted.sort(Comparator.comparingLong(WorkloadSpec::createdMs)); // stable
    workloads = List.copyOf(sorted);
  }

  @Override
  public WorkloadSource open(SplittableRandom random) {
    Iterator<WorkloadSpec> it = workloads.iterator();
    return () -> it.hasNext() ? it.next() : null;
  }
}
