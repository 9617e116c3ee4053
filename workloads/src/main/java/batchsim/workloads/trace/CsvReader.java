package batchsim.workloads.trace;

import java.io.BufferedReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Base of the comma-separated trace readers: the first non-blank line is a header that must name every
 * required column (in any order); each later line is split into fields that remember their columns, so
 * that a bad value is reported at {@code line:column} with its column name.
 */
abstract class CsvReader<T> extends LineReader<T> {
  private final Map<String, Integer> columns = new LinkedHashMap<>();
  private final int width;

  CsvReader(BufferedReader in, String file, OnError onError, List<String> required) {
    super(in, file, onError);
    String header;
    do {
      header = readLine();
    } while (header != null && header.isBlank());
    if (header == null) {
      throw error(1, 1, "", "the file is empty; expected a header line with " + String.join(",", required));
    }
    Row h = split(stripBom(header), lines());
    for (int i = 0; i < h.size(); i++) {
      columns.putIfAbsent(h.get(i).trim(), i);
    }
    for (String c : required) {
      if (!columns.containsKey(c)) {
        throw error(lines(), 1, "", "missing column '" + c + "' (the header has " + String.join(", ", columns.keySet())
            + "; expected " + String.join(",", required) + ")");
      }
    }
    this.width = h.size();
  }

  private static String stripBom(String s) {
    return s.startsWith("\uFEFF") ? s.substring(1) : s;
  }

  @Override
  final T parse(String line, int lineNo) {
    Row row = split(line, lineNo);
    if (row.size() != width) {
      throw error(lineNo, 1, "", "expected " + width + " comma-separated fields as in the header, got " + row.size());
    }
    return parse(row);
  }

  abstract T parse(Row row);

  /** One split line; fields are looked up by header name. */
  private static final long MIB = 1L << 20;

  final class Row {
    final int line;
    final List<String> values = new ArrayList<>();
    final List<Integer> starts = new ArrayList<>();

    Row(int line) {
      this.line = line;
    }

    int size() {
      return values.size();
    }

    String get(int i) {
      return values.get(i);
    }

    /** The trimmed value of {@code column}; "" when the header has no such (optional) column. */
    String text(String column) {
      Integer i = columns.get(column);
      return i == null ? "" : values.get(i).trim();
    }

    /** The trimmed value of {@code column}, which must not be empty ({@code what} names it in the error). */
    String required(String column, String what) {
      String s = text(column);
      if (s.isEmpty()) {
        throw bad(column, what + " must not be empty");
      }
      return s;
    }

    /** A non-negative amount of MiB, as bytes. */
    long mebibytes(String column) {
      long mib = nonNegative(column);
      if (mib > Long.MAX_VALUE / MIB) {
        throw bad(column, "too large: " + mib);
      }
      return mib * MIB;
    }

    TraceFormatException bad(String column, String detail) {
      return error(line, starts.get(columns.get(column)) + 1, column, detail);
    }

    long integer(String column) {
      String s = text(column);
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw bad(column, "'" + s + "' is not an integer");
      }
    }

    long nonNegative(String column) {
      long v = integer(column);
      if (v < 0) {
        throw bad(column, "must not be negative, got " + v);
      }
      return v;
    }

    /** A non-negative decimal number of seconds, as milliseconds. */
    long seconds(String column) {
      String s = text(column);
      double v;
      try {
        v = Double.parseDouble(s);
      } catch (NumberFormatException e) {
        throw bad(column, "'" + s + "' is not a number of seconds");
      }
      if (!(v >= 0) || Double.isInfinite(v)) {
        throw bad(column, "must be a non-negative number of seconds, got " + s);
      }
      return Math.round(v * 1000);
    }
  }

  /** Splits on commas; double-quoted fields may hold commas and doubled quotes. */
  final Row split(String line, int lineNo) {
    Row row = new Row(lineNo);
    StringBuilder field = new StringBuilder();
    int start = 0;
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"' && field.length() == 0) {
        quoted = true;
      } else if (c == ',') {
        row.values.add(field.toString());
        row.starts.add(start);
        field.setLength(0);
        start = i + 1;
      } else {
        field.append(c);
      }
    }
    if (quoted) {
      throw error(lineNo, start + 1, "", "unterminated quoted field");
    }
    row.values.add(field.toString());
    row.starts.add(start);
    return row;
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
