package batchsim.scenarios;

import batchsim.core.model.Durations;
import batchsim.core.model.KueueEnum;
import batchsim.core.model.Quantity;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Conversions of scalar nodes to values. Each returns null after reporting a problem, so callers can
 * keep binding and find the next problem too. A null node (absent or YAML null) also yields null,
 * without a report: whether that is allowed is the caller's business.
 */
final class Values {
  private static final Pattern INTEGER = Pattern.compile("[-+]?\\d+");
  private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*/\\s*(s|m|h|d)");

  private Values() {}

  static ScalarNode scalar(Node n, Problems p, String expected) {
    if (n == null || n.isNull()) {
      return null;
    }
    if (n instanceof ScalarNode s) {
      return s;
    }
    p.wrongType(n, expected);
    return null;
  }

  static String string(Node n, Problems p) {
    ScalarNode s = scalar(n, p, "a string");
    return s == null ? null : s.text();
  }

  static Long integer(Node n, Problems p, long min) {
    ScalarNode s = scalar(n, p, "an integer");
    if (s == null) {
      return null;
    }
    if (!INTEGER.matcher(s.text()).matches()) {
      p.wrongType(s, "an integer");
      return null;
    }
    long v;
    try {
      v = Long.parseLong(s.text().startsWith("+") ? s.text().substring(1) : s.text());
    } catch (NumberFormatException e) {
      p.at(s, "integer " + s.text() + " is out of range");
      return null;
    }
    if (v < min) {
      p.at(s, "must be >= " + min + ", got " + v);
      return null;
    }
    return v;
  }

  static Integer int32(Node n, Problems p, int min) {
    Long v = integer(n, p, min);
    if (v == null) {
      return null;
    }
    if (v > Integer.MAX_VALUE) {
      p.at(n, "must be <= " + Integer.MAX_VALUE + ", got " + v);
      return null;
    }
    return v.intValue();
  }

  static Double decimal(Node n, Problems p, double min) {
    ScalarNode s = scalar(n, p, "a number");
    if (s == null) {
      return null;
    }
    double v;
    try {
      v = new BigDecimal(s.text().trim()).doubleValue();
    } catch (NumberFormatException e) {
      p.wrongType(s, "a number");
      return null;
    }
    if (v < min) {
      p.at(s, "must be >= " + fmt(min) + ", got " + s.text());
      return null;
    }
    return v;
  }

  static Boolean bool(Node n, Problems p) {
    ScalarNode s = scalar(n, p, "true or false");
    if (s == null) {
      return null;
    }
    switch (s.text().toLowerCase(Locale.ROOT)) {
      case "true": return true;
      case "false": return false;
      default:
        if (s.type() == ScalarNode.Type.BOOL) { // YAML 1.1 spellings: yes/no/on/off
          return s.text().toLowerCase(Locale.ROOT).matches("y|yes|on");
        }
        p.wrongType(s, "true or false");
        return null;
    }
  }

  /** Milliseconds, via {@link Durations#parseMillis}. */
  static Long duration(Node n, Problems p) {
    ScalarNode s = scalar(n, p, "a duration (e.g. 30s, 5m, 2h)");
    if (s == null) {
      return null;
    }
    if (s.type() == ScalarNode.Type.BOOL) {
      p.wrongType(s, "a duration (e.g. 30s, 5m, 2h)");
      return null;
    }
    try {
      return Durations.parseMillis(s.text());
    } catch (IllegalArgumentException e) {
      p.at(s, e.getMessage());
      return null;
    }
  }

  /** A duration that may be negative ({@code -2h}: before the run starts, as an imported snapshot's times are). */
  static Long signedDuration(Node n, Problems p) {
    if (n instanceof ScalarNode s && s.type() != ScalarNode.Type.BOOL && s.text().startsWith("-")) {
      try {
        return -Durations.parseMillis(s.text().substring(1));
      } catch (IllegalArgumentException e) {
        p.at(s, e.getMessage());
        return null;
      }
    }
    return duration(n, p);
  }

  /** A positive duration in milliseconds. */
  static Long positiveDuration(Node n, Problems p) {
    Long v = duration(n, p);
    if (v != null && v <= 0) {
      p.at(n, "must be longer than 0");
      return null;
    }
    return v;
  }

  /** An amount of {@code resource} in base units, via {@link Quantity#parse}; YAML numbers count by their text. */
  static Long quantity(String resource, Node n, Problems p) {
    ScalarNode s = scalar(n, p, "a quantity (e.g. 500m, 4, 64Gi)");
    if (s == null) {
      return null;
    }
    if (s.type() == ScalarNode.Type.BOOL) {
      p.wrongType(s, "a quantity (e.g. 500m, 4, 64Gi)");
      return null;
    }
    try {
      return Quantity.parse(resource, s.text());
    } catch (IllegalArgumentException e) {
      p.at(s, e.getMessage());
      return null;
    }
  }

  static <E extends Enum<E> & KueueEnum> E enumeration(Class<E> type, Node n, Problems p) {
    ScalarNode s = scalar(n, p, "one of " + names(type));
    if (s == null) {
      return null;
    }
    try {
      return KueueEnum.parse(type, s.text());
    } catch (IllegalArgumentException e) {
      p.at(s, e.getMessage());
      return null;
    }
  }

  /**
   * A rate such as {@code 12/h} as the mean gap between events in milliseconds, or null after a report.
   */
  static Double rateAsMeanGapMs(Node n, Problems p) {
    ScalarNode s = scalar(n, p, "a rate (e.g. 12/h)");
    if (s == null) {
      return null;
    }
    var m = RATE.matcher(s.text().trim());
    if (!m.matches()) {
      p.at(s, "'" + s.text() + "' is not a rate (use e.g. 2/s, 30/m, 12/h, 100/d)");
      return null;
    }
    double perUnit = Double.parseDouble(m.group(1));
    if (perUnit <= 0) {
      p.at(s, "rate must be > 0");
      return null;
    }
    return Durations.parseMillis("1" + m.group(2)) / perUnit;
  }

  private static <E extends Enum<E> & KueueEnum> String names(Class<E> type) {
    StringBuilder sb = new StringBuilder();
    for (E e : type.getEnumConstants()) {
      sb.append(sb.length() == 0 ? "" : ", ").append(e.kueueName());
    }
    return sb.toString();
  }

  static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%s", d);
  }
}
