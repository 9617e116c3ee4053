package batchsim.workloads.trace;

/**
 * A malformed trace line: where it is and what is wrong. The message reads
 * {@code file:line:column: field: what is wrong}, like every other input problem in batchsim.
 */
public final class TraceFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final int column;
  private final String field;
  private final String detail;

  public TraceFormatException(String file, int line, int column, String field, String detail) {
    super(file + ":" + line + ":" + column + ": " + (field.isEmpty() ? "" : field + ": ") + detail, null, false,
        false);
    this.file = file;
    this.line = line;
    this.column = column;
    this.field = field;
    this.detail = detail;
  }

  public String file() {
    return file;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  /** The column or field named in the message ("" for the line as a whole). */
  public String field() {
    return field;
  }

  /** The message without the location. */
  public String detail() {
    return detail;
  }
}
