package batchsim.scenarios.expect;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields the status record has per kind (Kueue v1beta2 shapes, see README "Status record"), so that a path
 * naming a field, condition type, flavor or resource that cannot exist is refused when the scenario loads.
 */
final class StatusSchema {
  private StatusSchema() {}

  /** A node of the schema: a value, an object's fields, keyed items, or anything below (topology). */
  private sealed interface Node permits Leaf, Obj, Keyed, Any {}

  private record Leaf() implements Node {}

  private record Obj(Map<String, Node> fields) implements Node {}

  /** {@code [KEY]} items; {@code keys} is FLAVORS, RESOURCES, ANY_KEY or the list of allowed keys. */
  private record Keyed(String what, List<String> keys, Node item) implements Node {}

  private record Any() implements Node {}

  private static final Leaf LEAF = new Leaf();
  private static final List<String> FLAVORS = List.of("\0flavors");
  private static final List<String> RESOURCES = List.of("\0resources");
  private static final List<String> ANY_KEY = List.of("\0any");

  private static Obj obj(Object... kv) {
    Map<String, Node> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (Node) kv[i + 1]);
    }
    return new Obj(m);
  }

  private static Obj leaves(String... names) {
    Map<String, Node> m = new LinkedHashMap<>();
    for (String n : names) {
      m.put(n, LEAF);
    }
    return new Obj(m);
  }

  private static final Obj CONDITION = leaves("type", "status", "reason", "message", "lastTransitionTime");
  private static final Node FLAVOR_USAGE = new Keyed("flavor", FLAVORS, obj("name", LEAF,
      "resources", new Keyed("resource", RESOURCES, leaves("name", "total", "borrowed"))));
  private static final Obj FAIR_SHARING = leaves("weightedShare");

  private static final Map<String, Obj> KINDS = Map.of(
      "Workload", obj(
          "conditions", new Keyed("condition type", List.of("QuotaReserved", "Admitted", "PodsReady", "Evicted",
              "Preempted", "Requeued", "Finished"), CONDITION),
          "admission", obj("clusterQueue", LEAF, "podSetAssignments", new Keyed("podSet", ANY_KEY, obj(
              "name", LEAF, "flavors", new Keyed("resource", RESOURCES, LEAF),
              "resourceUsage", new Keyed("resource", RESOURCES, LEAF), "count", LEAF,
              "topologyAssignment", new Any()))),
          "admissionChecks", new Keyed("admission check", ANY_KEY,
              leaves("name", "state", "message", "lastTransitionTime", "retryCount")),
          "requeueState", leaves("count", "requeueAt"),
          "accumulatedPastExecutionTimeSeconds", LEAF,
          "clusterName", LEAF, "nominatedClusterNames", new Any(), // MultiKueue's manager
          "spec", leaves("active")),
      "ClusterQueue", obj(
          "conditions", new Keyed("condition type", List.of("Active"), CONDITION),
          "flavorsReservation", FLAVOR_USAGE, "flavorsUsage", FLAVOR_USAGE,
          "pendingWorkloads", LEAF, "reservingWorkloads", LEAF, "admittedWorkloads", LEAF,
          "fairSharing", FAIR_SHARING),
      "LocalQueue", obj("pendingWorkloads", LEAF, "reservingWorkloads", LEAF, "admittedWorkloads", LEAF,
          "fairSharing", obj("weightedShare", LEAF, "admissionFairSharingStatus", obj(
              "consumedResources", new Keyed("resource", RESOURCES, LEAF), "lastUpdate", LEAF))),
      "Cohort", obj("fairSharing", FAIR_SHARING));

  /** Why the path cannot exist, or null when it can. */
  static ExpressionException check(StatusPath p, Collection<String> flavors, Collection<String> resources) {
    Node at = KINDS.get(p.kind());
    String where = p.kind() + " status";
    for (StatusPath.Segment s : p.segments()) {
      if (at instanceof Any) {
        return null;
      }
      if (at instanceof Obj o && !s.key()) {
        Node next = o.fields().get(s.text());
        if (next == null) {
          return new ExpressionException(s.offset(), "unknown field '" + s.text() + "' of " + where + " (known: "
              + String.join(", ", o.fields().keySet()) + ")");
        }
        at = next;
        where = "'" + s.text() + "'";
        continue;
      }
      if (at instanceof Keyed k && s.key()) {
        Collection<String> known = k.keys() == FLAVORS ? flavors : k.keys() == RESOURCES ? resources
            : k.keys() == ANY_KEY ? null : k.keys();
        if (known != null && !known.contains(s.text())) {
          return new ExpressionException(s.offset() + 1, "unknown " + k.what() + " '" + s.text() + "' in " + where
              + " (known: " + String.join(", ", known) + ")");
        }
        at = k.item();
        where = "'" + s.text() + "'";
        continue;
      }
      return new ExpressionException(s.offset(), at instanceof Keyed k
          ? where + " is a list: pick an item with [" + k.what() + "]"
          : at instanceof Leaf ? where + " is a value; it has no '" + s.text() + "'"
          : where + " has fields: use ." + s.text() + " rather than [" + s.text() + "]");
    }
    if (at instanceof Obj o) {
      return new ExpressionException(p.segments().isEmpty() ? p.nameOffset() : last(p).offset(), where
          + " is an object: name one of its fields (" + String.join(", ", o.fields().keySet()) + ")");
    }
    if (at instanceof Keyed k) {
      return new ExpressionException(p.segments().isEmpty() ? p.nameOffset() : last(p).offset(), where
          + " is a list: pick an item with [" + k.what() + "]");
    }
    return null;
  }

  private static StatusPath.Segment last(StatusPath p) {
    return p.segments().get(p.segments().size() - 1);
  }
}
