package batchsim.scenarios.tables;

import batchsim.reports.CsvWriter;
import batchsim.reports.TextTable;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A table of strings for the sweep and compare outputs, rendered three ways: aligned plain text for
 * terminals through reports' {@link TextTable} (the first {@code left} columns left-aligned, the rest
 * right-aligned), CSV through reports' {@link CsvWriter}, and an HTML {@code <table>}. Rows may carry a
 * CSS class, which only the HTML form shows.
 */
public final class Table {
  private final int left;
  private final List<String> headers;
  private final List<String[]> rows = new ArrayList<>();
  private final List<String> classes = new ArrayList<>();

  public Table(int left, List<String> headers) {
    this.left = left;
    this.headers = List.copyOf(headers);
  }

  public Table row(List<String> cells) {
    return row(null, cells);
  }

  /** Adds a row; {@code cssClass} may be null. */
  public Table row(String cssClass, List<String> cells) {
    if (cells.size() != headers.size()) {
      throw new IllegalArgumentException("row has " + cells.size() + " cells, table has " + headers.size());
    }
    rows.add(cells.toArray(new String[0]));
    classes.add(cssClass);
    return this;
  }

  /** The leading, left-aligned name columns. */
  public int left() {
    return left;
  }

  public List<String> headers() {
    return headers;
  }

  /** The rows' cells as given (plain text). */
  public List<List<String>> rows() {
    return rows.stream().map(List::of).toList();
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** Aligned text ({@link TextTable}), each line indented by {@code indent}. */
  public String text(String indent) {
    TextTable t = new TextTable(left, headers);
    rows.forEach(r -> t.row(List.of(r)));
    return t.text(indent);
  }

  /** CSV ({@link CsvWriter}) with a header row. */
  public String csv() {
    StringWriter out = new StringWriter();
    try (CsvWriter csv = new CsvWriter(out)) {
      csv.row(headers);
      for (String[] r : rows) {
        csv.row(List.of(r));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  /** An HTML table; number columns get class "num". */
  public String html() {
    StringBuilder sb = new StringBuilder("<table>\n<thead><tr>");
    for (int c = 0; c < headers.size(); c++) {
      sb.append(c < left ? "<th>" : "<th class=\"num\">").append(escape(headers.get(c))).append("</th>");
    }
    sb.append("</tr></thead>\n<tbody>\n");
    for (int i = 0; i < rows.size(); i++) {
      String cls = classes.get(i);
      sb.append(cls == null ? "<tr>" : "<tr class=\"" + escape(cls) + "\">");
      String[] r = rows.get(i);
      for (int c = 0; c < r.length; c++) {
        sb.append(c < left ? "<td>" : "<td class=\"num\">").append(escape(r[c])).append("</td>");
      }
      sb.append("</tr>\n");
    }
    return sb.append("</tbody>\n</table>\n").toString();
  }

  /** Escapes text for HTML content and attribute values. */
  public static String escape(String s) {
    String text = xmlChars(s);
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      switch (ch) {
        case '&': sb.append("&amp;"); break;
        case '<': sb.append("&lt;"); break;
        case '>': sb.append("&gt;"); break;
        case '"': sb.append("&quot;"); break;
        case '\'': sb.append("&#39;"); break;
        default: sb.append(ch);
      }
    }
    return sb.toString();
  }

  /**
   * {@code s} without the control characters XML 1.0 forbids even as references (tab, CR and LF stay),
   * so that pages and JUnit XML stay readable whatever a name or message holds.
   */
  public static String xmlChars(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      boolean allowed = ch >= 0x20 || ch == '\n' || ch == '\t' || ch == '\r';
      if (!allowed && sb == null) {
        sb = new StringBuilder(s.length()).append(s, 0, i);
      } else if (allowed && sb != null) {
        sb.append(ch);
      }
    }
    return sb == null ? s : sb.toString();
  }

  /** A complete self-contained HTML page (inline CSS, no scripts, no network) around {@code body}. */
  public static String page(String title, String body) {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape(title)
        + "</title>\n<style>\n"
        + "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
        + "table{border-collapse:collapse;margin:1em 0}\n"
        + "th,td{border:1px solid #ccc;padding:.25em .6em;white-space:nowrap}\n"
        + "th{background:#f3f3f3;text-align:left}\n"
        + ".num{text-align:right;font-variant-numeric:tabular-nums}\n"
        + "tr.worse td{background:#fde2e2}\n"
        + "tr.better td{background:#e2f5e2}\n"
        + "tr.changed td{background:#fff6d6}\n"
        + "tr.failed td{background:#fde2e2}\n"
        + "</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
  }
}
