package batchsim.scenarios.cli;

import batchsim.core.metrics.RunResult;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The one-line self-report printed after a run: work done, speed, peak heap, and bytes allocated (bin/bench
 * reads it).
 */
final class SelfReport {
  private SelfReport() {}

  /** {@code workloads}: the rows the run wrote (its workloads, rejected arrivals included). */
  static String line(RunResult r, long workloads, long wallNanos, Path out) {
    long allocated = allocatedBytes();
    double wallS = Math.max(wallNanos, 1) / 1e9;
    double simS = r.endTimeMs() / 1e3;
    return String.format(Locale.ROOT,
        "batchsim: %,d events in %.2fs wall (%,.0f events/s, %,.0f workloads/s, simulated/wall %,.0fx), "
            + "peak heap %d MiB, allocated %,d MiB (%,d bytes per workload); reports in %s",
        r.events(), wallS, r.events() / wallS, workloads / wallS, simS / wallS, peakHeapMiB(),
        allocated >> 20, allocated / Math.max(1, workloads), out);
  }

  /**
   * Bytes this thread allocated since it started: the whole command (loading, the run, the reports), which
   * runs on this one thread. -1 when the JVM cannot tell.
   */
  static long allocatedBytes() {
    return ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
        ? t.getCurrentThreadAllocatedBytes() : -1;
  }

  /** Sum of the heap pools' peak usage since the JVM started. */
  static long peakHeapMiB() {
    long peak = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
        peak += p.getPeakUsage().getUsed();
      }
    }
    return peak >> 20;
  }
}
