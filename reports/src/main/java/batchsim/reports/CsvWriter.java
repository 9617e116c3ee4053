package batchsim.reports;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Every CSV file the tool writes goes through here: RFC 4180 with {@code ,} between cells and {@code \n}
 * line ends; a cell is quoted only when it holds a comma, a quote, CR or LF (quotes then doubled), and
 * null is an empty cell. Streams straight to its writer (runs can have a million workloads).
 */
public final class CsvWriter implements Closeable {
  private final Writer out;
  private boolean inRow;

  /** Writes to {@code out}; {@link #close} closes it. */
  public CsvWriter(Writer out) {
    this.out = out;
  }

  /** Buffered UTF-8 onto {@code out}; {@link #close} flushes and closes it. */
  static CsvWriter utf8(OutputStream out) {
    return new CsvWriter(new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16));
  }

  /** The next cell of the current row. */
  public CsvWriter cell(String s) throws IOException {
    if (inRow) {
      out.write(',');
    }
    inRow = true;
    if (s == null || s.isEmpty()) {
      return this;
    }
    if (!needsQuotes(s)) {
      out.write(s);
      return this;
    }
    out.write('"');
    int from = 0;
    for (int q = s.indexOf('"'); q >= 0; q = s.indexOf('"', from)) {
      out.write(s, from, q + 1 - from);
      out.write('"');
      from = q + 1;
    }
    out.write(s, from, s.length() - from);
    out.write('"');
    return this;
  }

  public CsvWriter cell(long v) throws IOException {
    return cell(Long.toString(v));
  }

  /** Ends the current row. */
  public CsvWriter endRow() throws IOException {
    out.write('\n');
    inRow = false;
    return this;
  }

  /** A whole row of cells. */
  public CsvWriter row(List<String> cells) throws IOException {
    for (String c : cells) {
      cell(c);
    }
    return endRow();
  }

  private static boolean needsQuotes(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ',' || c == '"' || c == '\n' || c == '\r') {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
