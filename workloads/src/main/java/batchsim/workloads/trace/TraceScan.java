package batchsim.workloads.trace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a trace once, as a run would but without sampling, and reports what it found ({@link TraceStats}).
 * Malformed lines are collected, never thrown, so that every one of them can be reported; a job id seen again
 * among the selected jobs is noted (job ids name the workloads, so they must be unique).
 */
public final class TraceScan {
  private TraceScan() {}

  /** File order only: is it sorted, which lines are malformed. A bad CSV header still throws. */
  public record Raw(long records, boolean sorted, int firstUnsortedLine, List<TraceFormatException> malformed,
      long malformedCount, Map<String, String> header) {}

  public static Raw raw(java.nio.file.Path file, String displayName, TraceFormat format, GpuOptions gpu)
      throws IOException {
    try (LineReader<TraceJob> r = format.open(file, displayName, OnError.SKIP, gpu)) {
      long n = 0;
      long previous = Long.MIN_VALUE;
      int unsorted = 0;
      TraceJob j;
      while ((j = r.next()) != null) {
        n++;
        if (j.submitMs() < previous && unsorted == 0) {
          unsorted = j.line();
        }
        previous = Math.max(previous, j.submitMs());
      }
      return new Raw(n, unsorted == 0, unsorted, List.copyOf(r.skipped()), r.skippedCount(), Map.copyOf(r.header()));
    }
  }

  /** Runs {@code source}'s selection and mapping over its file (skipping malformed lines). */
  public static TraceStats scan(TraceSource source, Raw raw) {
    Map<String, QueueAcc> queues = new LinkedHashMap<>();
    Map<String, Integer> priorityClasses = new LinkedHashMap<>();
    long selected = 0;
    long first = -1;
    long last = -1;
    int maxUnits = 0;
    Map<String, Integer> firstLineById = new HashMap<>();
    TraceStats.DuplicateId duplicate = null;
    long duplicates = 0;
    TraceSource.Pipeline p = source.pipeline(null, OnError.SKIP);
    try {
      TraceJob next;
      while ((next = p.next()) != null) {
        TraceJob j = next;
        selected++;
        Integer firstLine = firstLineById.putIfAbsent(j.id(), j.line());
        if (firstLine != null && duplicates++ == 0) {
          duplicate = new TraceStats.DuplicateId(j.id(), j.line(), firstLine, 0);
        }
        long t = p.createdMs(j);
        first = first < 0 ? t : first;
        last = t;
        maxUnits = Math.max(maxUnits, j.units());
        TraceMapping m = source.mapping();
        String q = m.queue().resolve(j);
        QueueAcc acc = queues.computeIfAbsent(q == null ? "" : q,
            k -> new QueueAcc(m.queue().from() == null ? null : j.attribute(m.queue().from()), j.line()));
        acc.jobs++;
        acc.unitSeconds += (long) j.units() * (p.mapper().runtime(j) / 1000);
        acc.resources.addAll(p.mapper().requested(j));
        String pc = m.priorityClass().resolve(j);
        if (pc != null) {
          priorityClasses.putIfAbsent(pc, j.line());
        }
      }
    } finally {
      p.close();
    }
    Map<String, TraceStats.QueueUse> uses = new LinkedHashMap<>();
    queues.forEach((q, a) -> uses.put(q, new TraceStats.QueueUse(q, a.value, a.jobs, a.firstLine,
        Set.copyOf(a.resources), a.unitSeconds)));
    return new TraceStats(raw.records(), raw.sorted(), raw.firstUnsortedLine(), raw.malformed(), raw.malformedCount(),
        selected, p.droppedUnknown, p.droppedCancelled, p.droppedFailed, p.outsideWindow, first, last, maxUnits,
        uses, priorityClasses, raw.header(), duplicate == null ? null
        : new TraceStats.DuplicateId(duplicate.id(), duplicate.line(), duplicate.firstLine(), duplicates - 1));
  }

  private static final class QueueAcc {
    final String value;
    final int firstLine;
    final Set<String> resources = new LinkedHashSet<>();
    long jobs;
    long unitSeconds;

    QueueAcc(String value, int firstLine) {
      this.value = value;
      this.firstLine = firstLine;
    }
  }

  /** The malformed lines as one message each. */
  public static List<String> describe(List<TraceFormatException> malformed) {
    List<String> out = new ArrayList<>();
    malformed.forEach(e -> out.add(e.getMessage()));
    return out;
  }
}
