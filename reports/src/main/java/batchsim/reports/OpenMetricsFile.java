package batchsim.reports;

import batchsim.core.metrics.MetricFamily;
import batchsim.core.world.MetricsSink;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The run's metric model as an OpenMetrics 1.0 text file, scraped in virtual time: each scrape is spooled per
 * family into temporary files in the output's directory (a long run's samples are not kept in memory), and
 * {@link #finish} writes the families one after the other — each Metric's points together, timestamps (epoch +
 * virtual time) increasing — then {@code # EOF}, into one more temporary file the caller moves into place.
 */
public final class OpenMetricsFile implements MetricsSink {
  /** Sample lines a file may hold (about 130 bytes each): beyond it the file is refused, not written. */
  public static final long MAX_LINES = 10_000_000;
  /** Memory the transposition of one family may use at once. */
  static final long BUDGET_BYTES = 32L << 20;

  private final Path dir;
  private final String name;
  private final long epochMs;
  private final SortedMap<String, String> runInfo;
  private final long maxLines;
  private final long budgetBytes;
  private final Map<String, FamilySpool> spools = new LinkedHashMap<>();
  private final List<MetricFamily<?>> order = new ArrayList<>();
  private final List<Long> infoTimes = new ArrayList<>();
  private long scrapes;
  private long lines;
  private boolean overflow;

  private OpenMetricsFile(Path dir, String name, long epochMs, SortedMap<String, String> runInfo, long maxLines,
      long budgetBytes) {
    this.dir = dir;
    this.name = name;
    this.epochMs = epochMs;
    this.runInfo = new TreeMap<>(runInfo);
    this.maxLines = maxLines;
    this.budgetBytes = budgetBytes;
  }

  /**
   * A file to be named {@code name}, spooled in {@code dir} (its directory: same file system), timestamps at
   * {@code epochMs} + virtual time. {@code runInfo}: labels of a {@code batchsim_run} info metric written first
   * (empty: none).
   */
  public static OpenMetricsFile open(Path dir, String name, long epochMs, SortedMap<String, String> runInfo) {
    return new OpenMetricsFile(dir, name, epochMs, runInfo, MAX_LINES, BUDGET_BYTES);
  }

  /** As above with a smaller file or transposition budget (tests). */
  static OpenMetricsFile open(Path dir, String name, long epochMs, SortedMap<String, String> runInfo, long maxLines,
      long budgetBytes) {
    return new OpenMetricsFile(dir, name, epochMs, runInfo, maxLines, budgetBytes);
  }

  @Override
  public void scrape(long timeMs, List<MetricFamily<?>> families) {
    if (overflow) {
      return;
    }
    scrapes++;
    try {
      if (order.isEmpty()) {
        order.addAll(families);
      }
      if (!runInfo.isEmpty()) {
        infoTimes.add(timeMs);
        lines++;
      }
      for (MetricFamily<?> f : families) {
        FamilySpool s = spools.get(f.name());
        if (s == null) {
          s = new FamilySpool(f, WorkloadRows.freeName(dir, "." + name + ".spool-", ".bin"));
          spools.put(f.name(), s);
        }
        lines -= s.lines();
        s.scrape(timeMs);
        lines += s.lines();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    overflow = lines > maxLines;
  }

  @Override
  public boolean full() {
    return overflow;
  }

  /** Why the file is refused (it grew past {@link #MAX_LINES} and spooling stopped), or null. */
  public String overflow() {
    return overflow ? "the metrics file grew past " + String.format(java.util.Locale.ROOT, "%,d", maxLines)
        + " samples after " + scrapes + " scrapes" : null;
  }

  /** Sample lines spooled so far. */
  public long lines() {
    return lines;
  }

  /** Writes the file into a temporary sibling and returns it; the spools are deleted. */
  public Path finish() throws IOException {
    if (overflow) {
      throw new IllegalStateException(overflow());
    }
    Path tmp = WorkloadRows.freeName(dir, "." + name + ".tmp-", "");
    try (Writer w = new BufferedWriter(new java.io.OutputStreamWriter(Files.newOutputStream(tmp,
        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), StandardCharsets.UTF_8), 1 << 16)) {
      writeInfo(w);
      Set<String> names = new HashSet<>();
      order.forEach(f -> names.add(f.name()));
      for (MetricFamily<?> f : order) {
        FamilySpool s = spools.get(f.name());
        if (s != null) {
          s.writeTo(w, epochMs, budgetBytes, names);
        }
      }
      w.write("# EOF\n");
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    } finally {
      discard();
    }
    return tmp;
  }

  /** The {@code batchsim_run} info metric: its labels, 1 at every scrape. */
  private void writeInfo(Writer w) throws IOException {
    if (runInfo.isEmpty()) {
      return;
    }
    w.write("# TYPE batchsim_run info\n# HELP batchsim_run The batchsim run these metrics come from.\n");
    StringBuilder labels = new StringBuilder();
    runInfo.forEach((k, v) -> MetricFamily.label(labels, k, v));
    for (long t : infoTimes) {
      w.write("batchsim_run_info{" + labels + "} 1 " + OpenMetricsText.timestamp(epochMs + t) + "\n");
    }
  }

  /** Deletes the spool files (idempotent). */
  public void discard() throws IOException {
    IOException failed = null;
    for (FamilySpool s : spools.values()) {
      try {
        s.close();
      } catch (IOException e) {
        failed = e;
      }
      Files.deleteIfExists(s.file());
    }
    if (failed != null) {
      throw failed;
    }
  }
}
