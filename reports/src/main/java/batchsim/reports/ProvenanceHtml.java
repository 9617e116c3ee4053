package batchsim.reports;

/**
 * The provenance in report.html's header: engine, overrides, sweep cell and build as header entries (the
 * scenario file, its hash and the seed are entries of their own), the input files' checksums folded away.
 */
final class ProvenanceHtml {
  private ProvenanceHtml() {}

  /** The header entries; without provenance, just the tool's version. */
  static void entries(StringBuilder out, RunMetadata meta) {
    Provenance p = meta.provenance();
    if (p == null) {
      HtmlReport.meta(out, "Tool", "batchsim " + Html.orDash(meta.toolVersion()));
      return;
    }
    HtmlReport.meta(out, "Engine", Html.esc(p.engine().describe()) + " <span class=\"muted\">"
        + Html.esc(p.engine().project()) + "</span>");
    StringBuilder sets = new StringBuilder();
    for (String o : p.overrides()) {
      sets.append(sets.length() == 0 ? "" : " ").append("<code>--set ").append(Html.esc(o)).append("</code>");
    }
    HtmlReport.meta(out, "Overrides", sets.length() == 0 ? "none" : sets.toString());
    if (p.cell() != null) {
      HtmlReport.meta(out, "Sweep cell", "<code>" + Html.esc(p.cell().name()) + "</code>");
    }
    Provenance.Build b = p.build();
    String commit = b.commit() == null ? "" : b.commit();
    HtmlReport.meta(out, "Tool", "batchsim " + Html.orDash(b.version()) + " <span class=\"muted\">commit</span> "
        + "<code title=\"" + Html.esc(commit) + "\">" + Html.orDash(commit.substring(0, Math.min(12, commit.length())))
        + "</code>" + (Boolean.TRUE.equals(b.dirty()) ? " (dirty)" : ""));
  }

  /** The input files and their SHA-256, in a collapsed {@code <details>}; nothing without provenance. */
  static void inputs(StringBuilder out, RunMetadata meta) {
    Provenance p = meta.provenance();
    if (p == null || p.inputs().isEmpty()) {
      return;
    }
    out.append("<details class=\"inputs\"><summary>Input files (").append(p.inputs().size())
        .append(") and their SHA-256</summary>\n<table>\n");
    for (Provenance.Input i : p.inputs()) {
      out.append("<tr><td><code>").append(Html.esc(i.path())).append("</code></td><td><code class=\"hash\">")
          .append(Html.esc(i.sha256())).append("</code></td></tr>\n");
    }
    out.append("</table></details>\n");
  }
}
