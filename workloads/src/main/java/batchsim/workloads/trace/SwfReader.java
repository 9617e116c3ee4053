package batchsim.workloads.trace;

import java.io.BufferedReader;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Standard Workload Format of the Parallel Workloads Archive: {@code ;} header lines with
 * {@code Key: value} metadata, then one job per line with 18 whitespace-separated numeric fields, -1
 * meaning unknown. The job's size is its allocated processors (field 5), or the requested ones (field 8)
 * when the allocation is unknown; times are seconds.
 */
final class SwfReader extends LineReader<TraceJob> {
  static final int FIELDS = 18;
  private static final String[] NAMES = {"job number", "submit time", "wait time", "run time",
      "allocated processors", "average CPU time", "used memory", "requested processors", "requested time",
      "requested memory", "status", "user id", "group id", "executable", "queue", "partition",
      "preceding job", "think time"};

  private final Map<String, String> header = new LinkedHashMap<>();
  private final String[] tokens = new String[FIELDS];
  private final int[] starts = new int[FIELDS];

  SwfReader(BufferedReader in, String file, OnError onError) {
    super(in, file, onError);
  }

  @Override
  public Map<String, String> header() {
    return Collections.unmodifiableMap(header);
  }

  @Override
  TraceJob parse(String line, int lineNo) {
    if (line.stripLeading().startsWith(";")) {
      headerLine(line.stripLeading().substring(1));
      return null;
    }
    int n = tokenize(line, lineNo);
    if (n != FIELDS) {
      throw error(lineNo, 1, "", "expected " + FIELDS + " whitespace-separated fields, got " + n);
    }
    String id = tokens[0];
    long submit = number(1, lineNo);
    if (submit < 0) {
      throw error(lineNo, starts[1] + 1, NAMES[1], "must be known (>= 0), got " + tokens[1]);
    }
    long run = number(3, lineNo);
    long allocated = number(4, lineNo);
    long requestedProcs = number(7, lineNo);
    long requestedTime = number(8, lineNo);
    long status = number(10, lineNo);
    for (int i : new int[] {2, 5, 6, 9, 11, 12, 13, 14, 15, 16, 17}) {
      number(i, lineNo); // every field must at least be a number
    }
    long units = allocated > 0 ? allocated : requestedProcs > 0 ? requestedProcs : TraceJob.UNKNOWN;
    if (units > Integer.MAX_VALUE) {
      throw error(lineNo, starts[4] + 1, NAMES[4], "too many processors: " + units);
    }
    Map<String, String> attributes = Map.of(
        "user", known(tokens[11]), "group", known(tokens[12]), "executable", known(tokens[13]),
        "queue", known(tokens[14]), "partition", known(tokens[15]));
    return new TraceJob(id, lineNo, submit * 1000, run < 0 ? TraceJob.UNKNOWN : run * 1000,
        requestedTime < 0 ? TraceJob.UNKNOWN : requestedTime * 1000, status(status), (int) units, Map.of(),
        attributes);
  }

  private static String known(String token) {
    return token.equals("-1") ? "" : token;
  }

  private static JobStatus status(long s) {
    switch ((int) s) {
      case 1:
      case 3: return JobStatus.COMPLETED; // 3: last partial execution, completed
      case 0:
      case 4: return JobStatus.FAILED;    // 4: last partial execution, failed or killed
      case 5: return JobStatus.CANCELLED;
      default: return JobStatus.UNKNOWN;
    }
  }

  /** Field {@code i} as a whole number; decimals are accepted and truncated (some logs write 12.5). */
  private long number(int i, int lineNo) {
    String s = tokens[i];
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      try {
        double d = Double.parseDouble(s);
        if (Double.isFinite(d)) {
          return (long) d;
        }
      } catch (NumberFormatException ignored) {
        // reported below
      }
      throw error(lineNo, starts[i] + 1, NAMES[i], "'" + s + "' is not a number");
    }
  }

  private int tokenize(String line, int lineNo) {
    int n = 0;
    int i = 0;
    int len = line.length();
    while (i < len) {
      while (i < len && Character.isWhitespace(line.charAt(i))) {
        i++;
      }
      if (i >= len) {
        break;
      }
      int start = i;
      while (i < len && !Character.isWhitespace(line.charAt(i))) {
        i++;
      }
      if (n < FIELDS) {
        tokens[n] = line.substring(start, i);
        starts[n] = start;
      }
      n++;
    }
    return n;
  }

  /** {@code Key: value}; a line without a key continues the previous key's value. */
  private void headerLine(String text) {
    int colon = text.indexOf(':');
    String key = colon > 0 ? text.substring(0, colon).trim() : "";
    if (key.matches("[A-Za-z][A-Za-z0-9 ]*")) {
      String value = text.substring(colon + 1).trim();
      header.merge(key, value, (a, b) -> a + "\n" + b);
    }
  }
}
