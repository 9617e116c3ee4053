package batchsim.core.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them in scenarios: {@code 500ms}, {@code 30s}, {@code 45m}, {@code 2h},
 * {@code 7d}, combinations such as {@code 1h30m}, and decimals such as {@code 1.5h}. A bare number is
 * rejected: the unit is never guessed. Virtual time is in milliseconds.
 */
public final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d|w)");

  private Durations() {}

  public static long parseMillis(String text) {
    String s = text.trim();
    if (s.isEmpty()) {
      throw new IllegalArgumentException("empty duration");
    }
    if (s.equals("0")) {
      return 0;
    }
    Matcher m = PART.matcher(s);
    int pos = 0;
    double total = 0;
    while (pos < s.length()) {
      if (!m.find(pos) || m.start() != pos) {
        throw new IllegalArgumentException(
            "'" + text + "' is not a duration (use e.g. 500ms, 30s, 45m, 2h, 7d, 1h30m)");
      }
      double n = Double.parseDouble(m.group(1));
      total += n * unitMillis(m.group(2));
      pos = m.end();
    }
    if (total != Math.rint(total)) {
      throw new IllegalArgumentException("duration '" + text + "' is finer than a millisecond");
    }
    if (total > Long.MAX_VALUE / 4) {
      throw new IllegalArgumentException("duration '" + text + "' is too long");
    }
    return (long) total;
  }

  private static long unitMillis(String unit) {
    switch (unit) {
      case "ms": return 1;
      case "s": return 1_000;
      case "m": return 60_000;
      case "h": return 3_600_000;
      case "d": return 86_400_000;
      case "w": return 7 * 86_400_000L;
      default: throw new AssertionError(unit);
    }
  }

  /** Formats milliseconds compactly and losslessly, e.g. {@code 1h30m}, {@code 2.5s} → {@code 2s500ms}. */
  public static String format(long ms) {
    if (ms == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    if (ms < 0) {
      sb.append('-');
      ms = -ms;
    }
    long[] units = {86_400_000, 3_600_000, 60_000, 1_000, 1};
    String[] names = {"d", "h", "m", "s", "ms"};
    for (int i = 0; i < units.length; i++) {
      if (ms >= units[i]) {
        sb.append(ms / units[i]).append(names[i]);
        ms %= units[i];
      }
    }
    return sb.toString();
  }
}
