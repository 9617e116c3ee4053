package batchsim.reports;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table, the one renderer behind every aligned table the tool prints: the first columns
 * (names) left-aligned, the rest (numbers) right-aligned, two spaces between columns, a dashed rule
 * under the header, no trailing spaces.
 */
public final class TextTable {
  private static final String GAP = "  ";

  private final int leftColumns;
  private final String[] headers;
  private final List<String[]> rows = new ArrayList<>(); // null marks a rule

  public TextTable(int leftColumns, List<String> headers) {
    this(leftColumns, headers.toArray(new String[0]));
  }

  TextTable(int leftColumns, String... headers) {
    this.leftColumns = leftColumns;
    this.headers = headers.clone();
  }

  public TextTable row(List<String> cells) {
    return row(cells.toArray(new String[0]));
  }

  TextTable row(String... cells) {
    if (cells.length != headers.length) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells, table has " + headers.length + " columns");
    }
    rows.add(cells.clone());
    return this;
  }

  /** A dashed rule, e.g. above a totals row. */
  TextTable rule() {
    rows.add(null);
    return this;
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The table, each line indented by {@code indent}. */
  public String text(String indent) {
    StringBuilder out = new StringBuilder();
    render(out, indent);
    return out.toString();
  }

  void render(StringBuilder out, String indent) {
    int[] widths = new int[headers.length];
    for (int c = 0; c < headers.length; c++) {
      widths[c] = headers[c].length();
    }
    for (String[] row : rows) {
      if (row != null) {
        for (int c = 0; c < row.length; c++) {
          widths[c] = Math.max(widths[c], cell(row, c).length());
        }
      }
    }
    String[] rule = new String[widths.length];
    for (int c = 0; c < widths.length; c++) {
      rule[c] = "-".repeat(widths[c]);
    }
    line(out, indent, headers, widths);
    line(out, indent, rule, widths);
    for (String[] row : rows) {
      line(out, indent, row == null ? rule : row, widths);
    }
  }

  private void line(StringBuilder out, String indent, String[] cells, int[] widths) {
    StringBuilder sb = new StringBuilder(indent);
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        sb.append(GAP);
      }
      String s = cell(cells, c);
      int pad = widths[c] - s.length();
      if (c < leftColumns) {
        sb.append(s).append(" ".repeat(pad));
      } else {
        sb.append(" ".repeat(pad)).append(s);
      }
    }
    out.append(stripTrailing(sb)).append('\n');
  }

  private static String cell(String[] row, int c) {
    return row[c] == null ? "" : row[c];
  }

  /** Trailing spaces only (padding, blank last cells): a cell's other whitespace is kept. */
  private static String stripTrailing(StringBuilder sb) {
    int end = sb.length();
    while (end > 0 && sb.charAt(end - 1) == ' ') {
      end--;
    }
    return sb.substring(0, end);
  }
}
