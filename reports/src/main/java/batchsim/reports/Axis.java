package batchsim.reports;

import batchsim.core.model.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One chart axis: a domain, "nice" ticks with their labels, a title, and the format the page script uses
 * for hover values ({@code time}, {@code pctl}, {@code dur}, {@code pct}, {@code num}).
 */
record Axis(double min, double max, double[] ticks, List<String> labels, String title, String format,
    String unit) {

  /** Duration steps people count in; beyond a year, years of 365 days scaled 1-2-5. */
  private static final long[] DURATION_STEPS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000,
      5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
      7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000, 172_800_000, 604_800_000L,
      1_209_600_000L, 2_592_000_000L, 7_776_000_000L, 15_552_000_000L, 31_536_000_000L};
  /** Percentiles marked on the log-ish percentile axis, and their positions -log10(1 - p/100). */
  private static final double[] PCTL_TICKS = {0, 0.30103, 1, 2, 3, 4};
  private static final List<String> PCTL_LABELS = List.of("0", "50", "90", "99", "99.9", "99.99");

  /** Simulated time from 0 to {@code maxMs}. */
  static Axis time(double maxMs, int target) {
    double max = Math.max(maxMs, 1);
    long step = durationStep(max, target);
    return durations(0, max, step, "simulated time", "time");
  }

  /** A wait-time axis from 0, its top rounded up to a nice duration. */
  static Axis duration(double maxMs, int target, String title) {
    double max = Math.max(maxMs, 1);
    long step = durationStep(max, target);
    return durations(0, Math.ceil(max / step) * step, step, title, "dur");
  }

  /** x = -log10(1 - p/100) from p = 0 to 99.99, HdrHistogram's usual percentile plot. */
  static Axis percentile() {
    return new Axis(0, 4, PCTL_TICKS.clone(), PCTL_LABELS, "percentile", "pctl", "");
  }

  /** Levels of a sweep parameter at x = 0, 1, ..., with half a step of room either side. */
  static Axis categories(List<String> labels, String title) {
    double[] ticks = new double[labels.size()];
    for (int i = 0; i < ticks.length; i++) {
      ticks[i] = i;
    }
    return new Axis(-0.5, labels.size() - 0.5, ticks, List.copyOf(labels), title, "cat", "");
  }

  static double percentileToX(double p) {
    return -StrictMath.log10(1 - p / 100);
  }

  static double xToPercentile(double x) {
    return 100 * (1 - StrictMath.pow(10, -x));
  }

  /** A ratio axis shown in percent; at least 0-100 %. */
  static Axis percent(double maxRatio, String title) {
    double max = Math.max(1, maxRatio);
    double step = max <= 1 ? 0.25 : niceStep(max, 4);
    return numbers(Math.ceil(max / step - 1e-9) * step, step, title, "pct", "",
        v -> Formats.fixed(v * 100, 0) + "%");
  }

  /** Counts (workloads); whole-number ticks. */
  static Axis count(double max, int target, String title) {
    double step = Math.max(1, niceStep(Math.max(max, 1), target));
    return numbers(Math.ceil(Math.max(max, 1) / step - 1e-9) * step, step, title, "num", "",
        v -> Formats.grouped(Math.round(v)));
  }

  /** Amounts in display units (cores, GiB, units). */
  static Axis amount(double max, int target, String title, String unit) {
    double top = max > 0 ? max : 1;
    double step = niceStep(top, target);
    int decimals = Math.max(0, (int) -StrictMath.floor(StrictMath.log10(step) + 1e-9));
    return numbers(Math.ceil(top / step - 1e-9) * step, step, title, "num", unit,
        v -> String.format(Locale.ROOT, "%,." + decimals + "f", v));
  }

  private static Axis numbers(double max, double step, String title, String format, String unit,
      java.util.function.DoubleFunction<String> label) {
    int n = (int) Math.round(max / step);
    double[] ticks = new double[n + 1];
    List<String> labels = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      ticks[i] = i * step;
      labels.add(label.apply(ticks[i]));
    }
    return new Axis(0, max, ticks, List.copyOf(labels), title, format, unit);
  }

  private static Axis durations(double min, double max, long step, String title, String format) {
    List<String> labels = new ArrayList<>();
    int n = (int) Math.floor(max / step + 1e-9);
    double[] ticks = new double[n + 1];
    for (int i = 0; i <= n; i++) {
      ticks[i] = (double) i * step;
      labels.add(i == 0 ? "0" : Durations.format(i * step));
    }
    return new Axis(min, max, ticks, List.copyOf(labels), title, format, "");
  }

  /** The smallest step from the duration ladder that gives at most {@code target} intervals. */
  static long durationStep(double span, int target) {
    for (long s : DURATION_STEPS) {
      if (span / s <= target) {
        return s;
      }
    }
    long year = DURATION_STEPS[DURATION_STEPS.length - 1];
    return year * (long) niceStep(span / year, target);
  }

  /** 1, 2 or 5 × 10^k, the smallest such step giving at most {@code target} intervals. */
  static double niceStep(double span, int target) {
    double raw = span / Math.max(1, target);
    double mag = StrictMath.pow(10, StrictMath.floor(StrictMath.log10(raw)));
    double r = raw / mag;
    double m = r <= 1 + 1e-9 ? 1 : r <= 2 + 1e-9 ? 2 : r <= 5 + 1e-9 ? 5 : 10;
    return m * mag;
  }
}
