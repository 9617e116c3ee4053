package batchsim.workloads.trace;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A lazy reader of one trace file: each {@link #next()} reads lines until it has one record (a job, or a
 * node of a node list), so memory does not grow with the file. Malformed lines either stop reading ({@link OnError#FAIL}, a
 * {@link TraceFormatException} naming file, line and field) or are skipped and remembered
 * ({@link OnError#SKIP}; the first {@value #KEEP_SKIPPED} are kept for reports, all are counted).
 */
public abstract class LineReader<T> implements Closeable {
  static final int KEEP_SKIPPED = 100;

  private final BufferedReader in;
  private final String file;
  private final OnError onError;
  private final List<TraceFormatException> skipped = new ArrayList<>();
  private long skippedCount;
  private int lineNo;
  private boolean eof;

  LineReader(BufferedReader in, String file, OnError onError) {
    this.in = in;
    this.file = file;
    this.onError = onError;
  }

  /** The next record, or null at the end of the file. */
  public final T next() {
    String line;
    while ((line = readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      try {
        T record = parse(line, lineNo);
        if (record != null) {
          return record;
        }
      } catch (TraceFormatException e) {
        if (onError == OnError.FAIL) {
          throw e;
        }
        if (skipped.size() < KEEP_SKIPPED) {
          skipped.add(e);
        }
        skippedCount++;
      }
    }
    return null;
  }

  /** Turns one non-blank line into a record; returns null for lines that hold none (comments). */
  abstract T parse(String line, int lineNo);

  /** The next raw line (counted), or null at the end. */
  final String readLine() {
    if (eof) {
      return null;
    }
    try {
      String line = in.readLine();
      if (line == null) {
        eof = true;
        return null;
      }
      lineNo++;
      return line;
    } catch (TraceFiles.InvalidGzip e) {
      throw error(lineNo + 1, 1, "", e.detail()); // fatal whatever onError says: nothing after it can be read
    } catch (IOException e) {
      throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
    }
  }

  final TraceFormatException error(int line, int column, String field, String detail) {
    return new TraceFormatException(file, line, column, field, detail);
  }

  public final String file() {
    return file;
  }

  /** Lines read so far. */
  public final int lines() {
    return lineNo;
  }

  /** The first skipped lines' problems, in file order. */
  public final List<TraceFormatException> skipped() {
    return Collections.unmodifiableList(skipped);
  }

  /** How many lines were skipped as malformed. */
  public final long skippedCount() {
    return skippedCount;
  }

  /** Header metadata the format carries (SWF {@code ; Key: value} lines), read so far. */
  public Map<String, String> header() {
    return Map.of();
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
