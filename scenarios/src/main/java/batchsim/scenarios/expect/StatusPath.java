package batchsim.scenarios.expect;

import java.util.List;
import java.util.Map;

/**
 * A field of a recorded object's status, as {@code at(...)} names it:
 * <pre>
 *   workload([NAMESPACE/]NAME)      .conditions[Admitted].reason   .admission.podSetAssignments[main].count
 *   clusterQueue(NAME)              .pendingWorkloads   .flavorsUsage[a100].resources[nvidia.com/gpu].total
 *   localQueue([NAMESPACE/]NAME)    .admittedWorkloads
 *   cohort(NAME)                    .fairSharing.weightedShare
 * </pre>
 * {@code .field} reads a field; {@code [KEY]} picks the list item whose {@code type} or {@code name} is KEY
 * (conditions by type, the rest by name), the item KEY of a list of names (nominatedClusterNames) or a map's key
 * (flavors, resourceUsage), and {@code spec.active} reads
 * the Workload's spec. A namespace-less Workload or LocalQueue is in {@code default}.
 *
 * @param kind the API kind: Workload, ClusterQueue, LocalQueue or Cohort
 * @param namespace null for cluster-scoped kinds
 * @param nameOffset where the object's name starts in the expression
 */
record StatusPath(String kind, String namespace, String name, int nameOffset, List<Segment> segments)
    implements AtTarget {

  /** One step: a field ({@code .name}) or a key ({@code [key]}), with where it is written. */
  record Segment(String text, boolean key, int offset) {
    @Override
    public String toString() {
      return key ? "[" + text + "]" : "." + text;
    }
  }

  /** The kinds and the function that names each in expressions. */
  static final Map<String, String> KINDS = Map.of("workload", "Workload", "clusterQueue", "ClusterQueue",
      "localQueue", "LocalQueue", "cohort", "Cohort");

  static boolean namespaced(String kind) {
    return kind.equals("Workload") || kind.equals("LocalQueue");
  }

  /** The object, e.g. {@code Workload team-a/wl1}. */
  String object() {
    return kind + " " + (namespace == null ? "" : namespace + "/") + name;
  }

  /** The path after the object, e.g. {@code .conditions[Admitted].status}. */
  String field() {
    StringBuilder sb = new StringBuilder();
    segments.forEach(sb::append);
    return sb.toString();
  }

  /**
   * The value the path names in a recorded object ({@code spec} and {@code status} maps), or a
   * {@link Missing} saying which part is absent.
   */
  Object resolve(Map<String, Object> spec, Map<String, Object> status) {
    Object at = status;
    int from = 0;
    if (!segments.isEmpty() && !segments.get(0).key() && segments.get(0).text().equals("spec")) {
      at = spec;
      from = 1;
    }
    StringBuilder walked = new StringBuilder(from == 1 ? ".spec" : "");
    for (int i = from; i < segments.size(); i++) {
      Segment s = segments.get(i);
      Object next = step(at, s);
      if (next == null) {
        return new Missing(walked.length() == 0 ? "status" : walked.substring(walked.charAt(0) == '.' ? 1 : 0),
            s.toString());
      }
      walked.append(s);
      at = next;
    }
    return at;
  }

  private static Object step(Object at, Segment s) {
    if (at instanceof Map<?, ?> m) {
      return m.get(s.text());
    }
    if (at instanceof List<?> l && s.key()) {
      for (Object item : l) {
        if (item instanceof Map<?, ?> m && (s.text().equals(m.get("type")) || s.text().equals(m.get("name")))
            || s.text().equals(item)) {
          return item; // a list of names (nominatedClusterNames): the item that is KEY
        }
      }
    }
    return null;
  }

  /** The part of a path the recorded object does not have: {@code part} is absent from {@code under}. */
  record Missing(String under, String part) {}
}
