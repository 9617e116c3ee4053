package batchsim.core.world;

import batchsim.core.metrics.Decision;
import batchsim.core.metrics.WorkloadRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link WorkloadSink} that keeps every record, for callers that want the whole list in the result (tests,
 * compare, sweeps' expectations, stories): {@link #records()} gives them in arrival order, as a run that
 * kept every workload to the end listed them.
 */
public final class WorkloadCollector implements WorkloadSink {
  private record Entry(long seq, WorkloadRecord record, List<Decision> decisions) {}

  private final List<Entry> entries = new ArrayList<>();
  private boolean sorted = true;

  @Override
  public void accept(long seq, WorkloadRecord record, List<Decision> decisions) {
    if (!entries.isEmpty() && entries.get(entries.size() - 1).seq > seq) {
      sorted = false;
    }
    entries.add(new Entry(seq, record, decisions));
  }

  private List<Entry> inOrder() {
    if (!sorted) {
      entries.sort(Comparator.comparingLong(Entry::seq)); // stable: equal numbers keep their order
      sorted = true;
    }
    return entries;
  }

  /** Every record, in arrival order. */
  public List<WorkloadRecord> records() {
    List<WorkloadRecord> out = new ArrayList<>(entries.size());
    for (Entry e : inOrder()) {
      out.add(e.record);
    }
    return out;
  }

  /** Workload id → its decision log, in arrival order (workloads that came with none are absent). */
  public Map<String, List<Decision>> decisions() {
    Map<String, List<Decision>> out = new LinkedHashMap<>();
    for (Entry e : inOrder()) {
      if (e.decisions != null) {
        out.put(e.record.id(), e.decisions);
      }
    }
    return out;
  }
}
