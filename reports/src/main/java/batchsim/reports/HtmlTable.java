package batchsim.reports;

import java.util.ArrayList;
import java.util.List;

/**
 * An HTML table: the first columns (names) left-aligned, the rest (numbers) right-aligned with tabular
 * figures, an optional totals row. Cells are HTML; callers escape text with {@link Html#esc}.
 */
final class HtmlTable {
  /** Rows beyond which the table scrolls in a box of its own (its header and first column stay). */
  static final int LONG = 15;
  private final int leftColumns;
  private final String[] headers;
  private final List<String[]> rows = new ArrayList<>();
  private String[] total;

  HtmlTable(int leftColumns, String... headers) {
    this.leftColumns = leftColumns;
    this.headers = headers.clone();
  }

  HtmlTable row(String... cells) {
    rows.add(check(cells));
    return this;
  }

  HtmlTable total(String... cells) {
    total = check(cells);
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty() && total == null;
  }

  void render(StringBuilder out) {
    out.append(rows.size() > LONG ? "<div class=\"table long\">" : "<div class=\"table\">")
        .append("<table>\n<thead><tr>");
    for (int c = 0; c < headers.length; c++) {
      out.append(c < leftColumns ? "<th>" : "<th class=\"n\">").append(headers[c]).append("</th>");
    }
    out.append("</tr></thead>\n<tbody>\n");
    for (String[] row : rows) {
      line(out, row);
    }
    out.append("</tbody>\n");
    if (total != null) {
      out.append("<tfoot>\n");
      line(out, total);
      out.append("</tfoot>\n");
    }
    out.append("</table></div>\n");
  }

  private void line(StringBuilder out, String[] cells) {
    out.append("<tr>");
    for (int c = 0; c < cells.length; c++) {
      out.append(c < leftColumns ? "<td>" : "<td class=\"n\">").append(cells[c]).append("</td>");
    }
    out.append("</tr>\n");
  }

  private String[] check(String[] cells) {
    if (cells.length != headers.length) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells, table has " + headers.length + " columns");
    }
    return cells.clone();
  }
}
