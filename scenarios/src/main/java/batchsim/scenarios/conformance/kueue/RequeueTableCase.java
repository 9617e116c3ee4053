package batchsim.scenarios.conformance.kueue;

import batchsim.core.kueue.KueueProbe;
import batchsim.core.kueue.RequeueReason;
import batchsim.core.model.QueueingStrategy;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;

/**
 * {@code requeue_table}: Kueue's Test{BestEffort,Strict}FIFORequeueIfNotPresent. Each row requeues a
 * workload that is not in a fresh ClusterQueue and checks where it went; a second requeue must report
 * "not added".
 */
final class RequeueTableCase {

  private RequeueTableCase() {}

  static Mismatches run(ConformanceCase c) {
    Mismatches m = new Mismatches();
    List<JsonNode> rows = Nodes.list(c.spec(), "cases");
    if (rows.isEmpty()) {
      throw CaseException.invalid("requeue_table has no cases");
    }
    int n = 0;
    for (JsonNode row : rows) {
      n++;
      QueueingStrategy strategy = Nodes.enumValue(QueueingStrategy.class, row, "strategy", null);
      if (strategy == null) {
        throw CaseException.invalid("requeue_table row " + n + ": missing strategy");
      }
      String reasonName = Nodes.required(row, "reason", "requeue_table row " + n);
      RequeueReason reason = reason(reasonName);
      Boolean pendingFlavors = Nodes.has(row, "last_scan_pending_flavors")
          ? Nodes.bool(row, "last_scan_pending_flavors", false) : null;
      String where = "row " + n + " (" + strategy.kueueName() + "/" + reasonName
          + (pendingFlavors == null ? "" : ", pending flavors " + pendingFlavors) + ")";
      KueueProbe.RequeueOutcome o = KueueProbe.requeue(strategy, reason, pendingFlavors);
      m.check(where + " added", true, o.added());
      String goesTo = Nodes.required(row, "goes_to", where);
      m.check(where + " goes_to", goesTo, o.inadmissible() ? "inadmissible" : "active");
      if (strategy == QueueingStrategy.BEST_EFFORT_FIFO || Nodes.has(row, "becomes_sticky_head")) {
        m.check(where + " becomes_sticky_head", Nodes.bool(row, "becomes_sticky_head", false), o.stickyHead());
      }
      m.check(where + " second requeue added", false, o.addedAgain());
    }
    return m;
  }

  /** Kueue's RequeueReason spelling (Generic is the empty reason) to the engine's. */
  private static RequeueReason reason(String name) {
    String snake = name.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
    try {
      return RequeueReason.valueOf(snake);
    } catch (IllegalArgumentException e) {
      throw CaseException.unsupported("requeue reason " + name + " is not supported yet");
    }
  }
}
