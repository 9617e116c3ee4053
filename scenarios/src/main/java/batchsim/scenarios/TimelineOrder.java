package batchsim.scenarios;

import batchsim.core.model.QueueObjectAction;
import batchsim.core.model.QueueObjectAction.Lifecycle;
import batchsim.core.model.QueueObjectAction.Step;
import batchsim.core.model.TimelineEvent;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks, before the run, that timeline actions name queue objects that exist at their time: no create of
 * an object that exists, no update, stop or delete of one that does not. An object declared at the top of
 * the scenario exists from the start; one only the timeline creates does not exist before its create (the
 * engine derives the same from the timeline: {@link QueueObjectAction#createdLater}). A recurring action is
 * checked at its first time only; its later times are checked as they happen.
 */
final class TimelineOrder {
  private TimelineOrder() {}

  static void check(List<TimelineEvent> events, List<Node> nodes, Set<String> atStart, Problems problems) {
    Set<String> exists = new HashSet<>(atStart);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingLong(i -> events.get(i).atMs()));
    for (int i : order) {
      TimelineEvent e = events.get(i);
      Step s = Step.of(e.action());
      if (s == null) {
        continue;
      }
      boolean there = exists.contains(s.object());
      if (s.op() == Lifecycle.CREATE && there) {
        problems.at(nodes.get(i), s.object() + " already exists at this time");
      } else if (s.op() != Lifecycle.CREATE && !there) {
        problems.at(nodes.get(i), s.object() + " does not exist at this time (deleted earlier, or created later)");
      }
      if (e.every() != null) {
        continue; // where it stands after its later times is known only when the run gets there
      }
      if (s.op() == Lifecycle.CREATE) {
        exists.add(s.object());
      } else if (s.op() == Lifecycle.DELETE) {
        exists.remove(s.object());
      }
    }
  }
}
