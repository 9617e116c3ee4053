package batchsim.reports;

import static batchsim.reports.ReportBody.pct;

import batchsim.core.metrics.ClusterResult;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.UtilizationStat;
import java.util.List;

/**
 * report.html's MultiKueue section (only for a manager's run): per worker cluster, what MultiKueue did there,
 * its own waits as its Kueue saw the copies, and its GPU (or else CPU) utilization; then all workers together.
 */
final class ClustersSection {
  private ClustersSection() {}

  static void write(RunResult r, ReportBody body) {
    if (r.clusters().isEmpty()) {
      return;
    }
    body.optionalSection("clusters", "MultiKueue clusters",
        "The figures above are the manager's: the whole run as its users see it (created on the manager → "
        + "started on a worker). Per worker: copies created and removed, workloads it won (its copy was admitted "
        + "first and made the manager's check Ready; and of those, finished), workloads requeued after it stayed lost past workerLostTimeout, and its own waits "
        + "(copy created → reserved there) and utilization.");
    HtmlTable t = new HtmlTable(1, "Cluster", "Copies created", "Copies removed", "Won", "Finished",
        "Requeued (lost)", "Disconnected", "Reservation p50", "Reservation p95", "Utilization");
    for (ClusterResult c : r.clusters()) {
      QueueStats q = c.result().overall();
      t.row(Html.esc(c.name()), Formats.grouped(c.copiesCreated()), Formats.grouped(c.copiesRemoved()),
          Formats.grouped(c.won()), Formats.grouped(c.finished()), Formats.grouped(c.requeuedLost()),
          Html.esc(Formats.humanDuration(c.disconnectedMs())), pct(q.timeToReservation(), 50),
          pct(q.timeToReservation(), 95), Html.esc(utilization(c.result().utilization())));
    }
    String all = Html.esc(utilization(ClustersJson.together(r.clusters())));
    t.row("<b>all workers</b>", "", "", "", "", "", "", "", "", all);
    body.table(t);
    body.html().append("</section>\n");
  }

  /** The main accelerator's (else CPU's) utilization over all nodes. */
  static String utilization(List<UtilizationStat> stats) {
    UtilizationStat best = null;
    for (UtilizationStat u : stats) {
      boolean all = u.flavor().equals(UtilizationStat.ALL_NODES);
      if (all && u.resource().contains("gpu") && (best == null || !best.resource().contains("gpu"))) {
        best = u;
      } else if (all && u.resource().equals("cpu") && best == null) {
        best = u;
      }
    }
    return best == null ? "-" : best.resource() + " " + Formats.percent(best.utilization());
  }
}
