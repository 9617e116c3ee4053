package batchsim.core.metrics;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Per workload, how many of its events (preemptions, readmissions) fell within a sliding window of virtual
 * time ending at the latest one, and the most that ever did.
 */
final class WindowCounts {
  private final long windowMs;
  private final Map<String, ArrayDeque<Long>> recent = new HashMap<>();
  private final Map<String, Integer> most = new HashMap<>();

  /** @param windowMs the window's length; 1 ms is one virtual instant */
  WindowCounts(long windowMs) {
    if (windowMs < 1) {
      throw new IllegalArgumentException("window must be at least 1 ms: " + windowMs);
    }
    this.windowMs = windowMs;
  }

  /** Records an event of {@code workload} at {@code t}; returns how many of its events lie in (t - window, t]. */
  int record(String workload, long t) {
    ArrayDeque<Long> d = recent.computeIfAbsent(workload, k -> new ArrayDeque<>());
    while (!d.isEmpty() && d.peekFirst() <= t - windowMs) {
      d.removeFirst();
    }
    d.addLast(t);
    most.merge(workload, d.size(), Math::max);
    return d.size();
  }

  /** The workloads that had more than {@code threshold} events within one window, with their most, by id. */
  SortedMap<String, Integer> over(int threshold) {
    SortedMap<String, Integer> out = new TreeMap<>();
    most.forEach((w, n) -> {
      if (n > threshold) {
        out.put(w, n);
      }
    });
    return out;
  }
}
