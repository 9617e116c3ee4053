package batchsim.core.world.volcano;

import batchsim.core.world.SampleSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Per-queue samples of a run under Volcano, in the columns of a Kueue run where they mean the same: per leaf
 * queue {@code pending:}, {@code holding:} (gang bound, not finished) and {@code inqueue:} (PodGroups in phase
 * Inqueue); per queue and configured resource {@code used:<queue>:*:<resource>} and {@code borrowed:} (above
 * deserved).
 */
final class VolcanoSamples implements SampleSource {
  private final VolcanoQueues queues;
  private final int[] pending;
  private final int[] holding;
  private final int[] inqueue;
  private final List<String> columns = new ArrayList<>();
  private final List<Integer> usageSlots;

  VolcanoSamples(VolcanoQueues queues, int[] pending, int[] holding, int[] inqueue) {
    this.queues = queues;
    this.pending = pending;
    this.holding = holding;
    this.inqueue = inqueue;
    for (String q : queues.leaves()) {
      columns.add("pending:" + q);
      columns.add("holding:" + q);
      columns.add("inqueue:" + q);
    }
    this.usageSlots = queues.sampledSlots();
    for (int slot : usageSlots) {
      columns.add("used:" + queues.slotLabel(slot));
      columns.add("borrowed:" + queues.slotLabel(slot));
    }
  }

  @Override
  public List<String> columns() {
    return columns;
  }

  @Override
  public int sample(long[] row, int c) {
    for (int q = 0; q < pending.length; q++) {
      row[c++] = pending[q];
      row[c++] = holding[q];
      row[c++] = inqueue[q];
    }
    for (int slot : usageSlots) {
      long used = queues.level(slot);
      row[c++] = used;
      row[c++] = Math.max(0, used - queues.nominal(slot));
    }
    return c;
  }
}
