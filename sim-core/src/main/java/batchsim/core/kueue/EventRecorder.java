package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.List;

/** The Kueue events ("workload reason type") the engine emits, recorded only for conformance checks. */
final class EventRecorder {
  private final List<String> events = new ArrayList<>();
  private boolean recordEvents;

  void recordEvents(boolean on) {
    recordEvents = on;
  }

  List<String> events() {
    return events;
  }

  void event(Workload w, String reason, String type) {
    if (recordEvents) {
      events.add(w.id() + " " + reason + " " + type);
    }
  }
}
