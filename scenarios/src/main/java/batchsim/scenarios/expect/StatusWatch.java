package batchsim.scenarios.expect;

import batchsim.core.world.StatusRecord;
import batchsim.core.world.StatusSink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps, for each {@code at(TIME, ...)} expectation of a run, the last status its object recorded at or before
 * TIME, as the records stream by in virtual-time order: memory is one record per expectation, whatever the
 * run's length. One watch per run ({@link Expectations#newStatusWatch}).
 */
public final class StatusWatch implements StatusSink {
  /** What one expectation saw: the record that holds at its time, and when its object was first recorded. */
  static final class Seen {
    final long atMs;
    StatusRecord record;
    long firstMs = -1;

    Seen(long atMs) {
      this.atMs = atMs;
    }
  }

  private final Map<String, List<Seen>> byObject = new HashMap<>();
  private final Map<AtStatus, Seen> byExpectation = new HashMap<>();

  StatusWatch(List<AtStatus> expectations) {
    for (AtStatus e : expectations) {
      Seen s = new Seen(e.atMs());
      byExpectation.put(e, s);
      StatusPath p = e.path();
      byObject.computeIfAbsent(key(p.kind(), p.namespace(), p.name()), k -> new ArrayList<>()).add(s);
    }
  }

  private static String key(String kind, String ns, String name) {
    return kind + "\0" + ns + "\0" + name;
  }

  @Override
  public void accept(StatusRecord r) {
    List<Seen> seen = byObject.get(key(r.kind(), r.namespace(), r.name()));
    if (seen == null) {
      return;
    }
    for (Seen s : seen) {
      if (s.firstMs < 0) {
        s.firstMs = r.timeMs();
      }
      if (r.timeMs() <= s.atMs) {
        s.record = r;
      }
    }
  }

  Seen seen(AtStatus e) {
    return byExpectation.get(e);
  }
}
