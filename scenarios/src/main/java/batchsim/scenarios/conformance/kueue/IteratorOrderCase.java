package batchsim.scenarios.conformance.kueue;

import batchsim.core.kueue.KueueProbe;
import batchsim.core.kueue.Workload;
import batchsim.core.model.KueueConfig;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code iterator_order}: Kueue's TestEntryOrdering. Entries with a borrowing height, priority, creation
 * time and optional eviction are sorted by the classical in-cycle iterator.
 */
final class IteratorOrderCase {

  private IteratorOrderCase() {}

  static Mismatches run(ConformanceCase c) {
    KueueConfig config = CaseConfig.read(c.spec());
    if (config.fairSharing()) {
      throw CaseException.unsupported("iterator_order with fair sharing is not supported yet");
    }
    List<KueueProbe.OrderEntry> entries = new ArrayList<>();
    for (JsonNode e : Nodes.list(c.spec(), "entries")) {
      String id = Nodes.required(e, "id", "entry");
      String reason = null;
      long at = 0;
      JsonNode ev = e.get("evicted");
      if (ev != null && !ev.isNull()) {
        reason = Nodes.required(ev, "reason", "entry " + id + " evicted");
        at = Nodes.relativeTime(ev, "at", CaseSetup.NOW, CaseSetup.NOW);
      }
      entries.add(new KueueProbe.OrderEntry(id, Nodes.integer(e, "borrowing", 0), Nodes.integer(e, "priority", 0),
          Nodes.relativeTime(e, "created", CaseSetup.NOW, Workload.UNSET_TIME), reason, at));
    }
    List<String> expected = new ArrayList<>();
    for (JsonNode id : Nodes.list(c.expect(), "order")) {
      expected.add(Nodes.text(id, "order"));
    }
    Mismatches m = new Mismatches();
    m.check("order", expected, KueueProbe.classicalOrder(config, entries));
    return m;
  }
}
