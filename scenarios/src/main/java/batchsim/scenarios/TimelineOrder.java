package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.QueueObjectAction;
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

  private enum Op { CREATE, DELETE, USE }

  private record Step(String object, Op op) {}

  static void check(List<TimelineEvent> events, List<Node> nodes, Set<String> atStart, Problems problems) {
    Set<String> exists = new HashSet<>(atStart);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingLong(i -> events.get(i).atMs()));
    for (int i : order) {
      TimelineEvent e = events.get(i);
      Step s = step(e.action());
      if (s == null) {
        continue;
      }
      boolean there = exists.contains(s.object());
      if (s.op() == Op.CREATE && there) {
        problems.at(nodes.get(i), s.object() + " already exists at this time");
      } else if (s.op() != Op.CREATE && !there) {
        problems.at(nodes.get(i), s.object() + " does not exist at this time (deleted earlier, or created later)");
      }
      if (e.every() != null) {
        continue; // where it stands after its later times is known only when the run gets there
      }
      if (s.op() == Op.CREATE) {
        exists.add(s.object());
      } else if (s.op() == Op.DELETE) {
        exists.remove(s.object());
      }
    }
  }

  private static Step step(ClusterAction a) {
    if (a instanceof ClusterAction.DeleteQueue d) {
      return new Step(d.clusterQueue() != null ? "ClusterQueue " + d.clusterQueue() : "LocalQueue " + d.localQueue(),
          Op.DELETE);
    }
    if (a instanceof ClusterAction.StopQueue s) {
      return new Step(s.clusterQueue() != null ? "ClusterQueue " + s.clusterQueue() : "LocalQueue " + s.localQueue(),
          Op.USE);
    }
    if (a instanceof ClusterAction.SetQuota q) {
      return new Step("ClusterQueue " + q.clusterQueue(), Op.USE);
    }
    if (a instanceof ClusterAction.SetPreemption p) {
      return new Step("ClusterQueue " + p.clusterQueue(), Op.USE);
    }
    if (a instanceof QueueObjectAction q) {
      String name = q.getClass().getSimpleName();
      return new Step(q.object(), name.startsWith("Create") ? Op.CREATE : name.startsWith("Delete") ? Op.DELETE
          : Op.USE);
    }
    return null;
  }
}
