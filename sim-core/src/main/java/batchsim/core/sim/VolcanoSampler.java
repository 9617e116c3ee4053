package batchsim.core.sim;

import batchsim.core.metrics.TimeSeries;
import java.util.ArrayList;
import java.util.List;

/**
 * Time-series samples of a run under Volcano, in the columns of the Kueue run where they mean the same:
 * per leaf queue {@code pending:}, {@code holding:} (gang bound, not finished) and {@code inqueue:} (PodGroups
 * in phase Inqueue); per queue and configured resource {@code used:<queue>:*:<resource>} and {@code borrowed:}
 * (above deserved); {@code allocated:} and {@code capacity:} per flavor and resource; {@code nodes:} and
 * {@code failed:} per pool.
 */
final class VolcanoSampler {
  private final VolcanoSimulation sim;
  private final List<String> columns = new ArrayList<>();
  private final List<Integer> usageSlots;
  private final List<Long> times = new ArrayList<>();
  private final List<long[]> rows = new ArrayList<>();

  VolcanoSampler(VolcanoSimulation sim) {
    this.sim = sim;
    for (String q : sim.queues.leaves()) {
      columns.add("pending:" + q);
      columns.add("holding:" + q);
      columns.add("inqueue:" + q);
    }
    this.usageSlots = sim.queues.sampledSlots();
    for (int slot : usageSlots) {
      columns.add("used:" + sim.queues.slotLabel(slot));
      columns.add("borrowed:" + sim.queues.slotLabel(slot));
    }
    columns.addAll(sim.capacity.columns());
  }

  void sample() {
    long[] row = new long[columns.size()];
    int c = 0;
    for (int q = 0; q < sim.pending.length; q++) {
      row[c++] = sim.pending[q];
      row[c++] = sim.holding[q];
      row[c++] = sim.inqueue[q];
    }
    for (int slot : usageSlots) {
      long used = sim.queues.level(slot);
      row[c++] = used;
      row[c++] = Math.max(0, used - sim.queues.nominal(slot));
    }
    sim.capacity.sample(row, c);
    times.add(sim.loop.now());
    rows.add(row);
  }

  TimeSeries series() {
    return times.isEmpty() ? TimeSeries.EMPTY : new TimeSeries(List.copyOf(columns), times, rows);
  }
}
