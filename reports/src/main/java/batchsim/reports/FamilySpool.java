package batchsim.reports;

import batchsim.core.metrics.HistogramFamily;
import batchsim.core.metrics.MetricFamily;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;

/**
 * One metric family's scrapes on disk, as they come (scrape by scrape), written out at the end series by series
 * (OpenMetrics wants a Metric's points together). A record is the series' id, the time and its values; the
 * transposition reads the file once per group of series whose points fit in {@code budgetBytes}.
 */
final class FamilySpool {
  private final MetricFamily<?> family;
  private final Path file;
  private final DataOutputStream out;
  /** Values per point: 1, or a histogram's buckets then its count and sum. */
  private final int width;
  private final double[] bounds;
  private final Map<List<String>, Integer> ids = new HashMap<>();
  private final List<List<String>> labels = new ArrayList<>();
  private int[] points = new int[16];
  private long lines;

  FamilySpool(MetricFamily<?> family, Path file) throws IOException {
    this.family = family;
    this.file = file;
    this.out = new DataOutputStream(new BufferedOutputStream(
        Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 1 << 13));
    this.bounds = family instanceof HistogramFamily h ? h.bounds() : new double[0];
    this.width = family.type() == MetricFamily.Type.HISTOGRAM ? bounds.length + 2 : 1;
  }

  Path file() {
    return file;
  }

  /** Sample lines spooled so far (a histogram point is its buckets, +Inf, count and sum). */
  long lines() {
    return lines;
  }

  /** Appends every series of the family as it is now, at {@code timeMs}. */
  void scrape(long timeMs) throws IOException {
    IOException[] failed = {null};
    family.read(new MetricFamily.SeriesReader() {
      @Override
      public void scalar(List<String> labelValues, double value) {
        record(labelValues, timeMs, new double[] {value}, failed);
      }

      @Override
      public void histogram(List<String> labelValues, long[] buckets, long count, double sum) {
        double[] v = new double[width];
        for (int i = 0; i < buckets.length; i++) {
          v[i] = buckets[i];
        }
        v[width - 2] = count;
        v[width - 1] = sum;
        record(labelValues, timeMs, v, failed);
      }
    });
    if (failed[0] != null) {
      throw failed[0];
    }
  }

  private void record(List<String> labelValues, long timeMs, double[] values, IOException[] failed) {
    Integer id = ids.get(labelValues);
    if (id == null) {
      id = labels.size();
      ids.put(List.copyOf(labelValues), id);
      labels.add(List.copyOf(labelValues));
      if (id == points.length) {
        points = Arrays.copyOf(points, id * 2);
      }
    }
    points[id]++;
    lines += width == 1 ? 1 : width + 1;
    try {
      out.writeInt(id);
      out.writeLong(timeMs);
      for (double v : values) {
        out.writeDouble(v);
      }
    } catch (IOException e) {
      failed[0] = e;
    }
  }

  void close() throws IOException {
    out.close();
  }

  /** Writes the family (descriptors, then each series' points in time order) unless it never had a series. */
  void writeTo(Writer w, long epochMs, long budgetBytes, Set<String> names) throws IOException {
    close();
    if (labels.isEmpty()) {
      return;
    }
    w.write(OpenMetricsText.descriptors(family, names));
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      order.add(i);
    }
    order.sort((a, b) -> MetricFamily.compareValues(labels.get(a), labels.get(b)));
    long perPoint = 8L + 8L * width;
    int from = 0;
    while (from < order.size()) {
      int to = from;
      long bytes = 0;
      do {
        bytes += points[order.get(to)] * perPoint;
        to++;
      } while (to < order.size() && bytes + points[order.get(to)] * perPoint <= budgetBytes);
      writeGroup(w, order.subList(from, to), epochMs);
      from = to;
    }
  }

  /** One pass over the spool for {@code group}'s points, then their lines, series by series. */
  private void writeGroup(Writer w, List<Integer> group, long epochMs) throws IOException {
    Map<Integer, Integer> slot = new HashMap<>();
    long[][] times = new long[group.size()][];
    double[][] values = new double[group.size()][];
    for (int i = 0; i < group.size(); i++) {
      slot.put(group.get(i), i);
      times[i] = new long[points[group.get(i)]];
      values[i] = new double[points[group.get(i)] * width];
    }
    int[] filled = new int[group.size()];
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
      while (true) {
        int id;
        try {
          id = in.readInt();
        } catch (EOFException end) {
          break;
        }
        long t = in.readLong();
        Integer s = slot.get(id);
        if (s == null) {
          in.skipNBytes(8L * width);
          continue;
        }
        times[s][filled[s]] = t;
        for (int k = 0; k < width; k++) {
          values[s][filled[s] * width + k] = in.readDouble();
        }
        filled[s]++;
      }
    }
    StringBuilder line = new StringBuilder(256);
    for (int i = 0; i < group.size(); i++) {
      String labelText = family.labelText(labels.get(group.get(i)));
      for (int p = 0; p < times[i].length; p++) {
        String ts = OpenMetricsText.timestamp(epochMs + times[i][p]);
        if (width == 1) {
          sample(w, line, family.name(), labelText, null, values[i][p], ts);
          continue;
        }
        int base = p * width;
        for (int b = 0; b < bounds.length; b++) {
          sample(w, line, family.name() + "_bucket", labelText, OpenMetricsText.le(bounds[b]), values[i][base + b], ts);
        }
        sample(w, line, family.name() + "_bucket", labelText, "+Inf", values[i][base + width - 2], ts);
        sample(w, line, family.name() + "_count", labelText, null, values[i][base + width - 2], ts);
        sample(w, line, family.name() + "_sum", labelText, null, values[i][base + width - 1], ts);
      }
    }
  }

  private static void sample(Writer w, StringBuilder line, String name, String labelText, String le, double value,
      String ts) throws IOException {
    line.setLength(0);
    line.append(name);
    if (!labelText.isEmpty() || le != null) {
      StringBuilder l = new StringBuilder(labelText);
      if (le != null) {
        MetricFamily.label(l, "le", le);
      }
      line.append('{').append(l).append('}');
    }
    line.append(' ').append(OpenMetricsText.number(value)).append(' ').append(ts).append('\n');
    w.append(line);
  }
}
