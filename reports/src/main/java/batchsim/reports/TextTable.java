package batchsim.reports;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table: the first columns (names) left-aligned, the rest (numbers) right-aligned, two
 * spaces between columns, a dashed rule under the header, no trailing spaces.
 */
final class TextTable {
  private static final String GAP = "  ";

  private final int leftColumns;
  private final String[] headers;
  private final List<String[]> rows = new ArrayList<>(); // null marks a rule

  TextTable(int leftColumns, String... headers) {
    this.leftColumns = leftColumns;
    this.headers = headers.clone();
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

  boolean isEmpty() {
    return rows.isEmpty();
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
    line(out, indent, headers, widths);
    ruleLine(out, indent, widths);
    for (String[] row : rows) {
      if (row == null) {
        ruleLine(out, indent, widths);
      } else {
        line(out, indent, row, widths);
      }
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

  private static void ruleLine(StringBuilder out, String indent, int[] widths) {
    StringBuilder sb = new StringBuilder(indent);
    for (int c = 0; c < widths.length; c++) {
      if (c > 0) {
        sb.append(GAP);
      }
      sb.append("-".repeat(widths[c]));
    }
    out.append(sb).append('\n');
  }

  private static String cell(String[] row, int c) {
    return row[c] == null ? "" : row[c];
  }

  private static String stripTrailing(StringBuilder sb) {
    int end = sb.length();
    while (end > 0 && sb.charAt(end - 1) == ' ') {
      end--;
    }
    return sb.substring(0, end);
  }
}
