package batchsim.scenarios.imports;

import batchsim.core.model.Durations;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Kueue's Workload objects — the cluster's live state — as listed workloads of a scenario whose t = 0 is the
 * snapshot. A Workload holding quota (QuotaReserved=True) keeps it from the start with the flavors and counts
 * of its {@code status.admission}, Admitted or still waiting for its checks, its pods on the nodes their
 * {@code spec.nodeName} says (or, without pods, the hostnames of a TAS topology assignment), running since
 * PodsReady; a pending one keeps its queue, priority and creation time (negative {@code at}: Kueue orders its
 * queue by it). A finished one is history: its runtime teaches the per-queue runtime estimate. A deactivated
 * one ({@code spec.active: false}) is left out and counted.
 */
final class WorkloadObjects {
  static final String KIND = "Workload";
  private static final Set<String> TIME_KEYS =
      Set.of("creationTimestamp", "lastTransitionTime", "lastHeartbeatTime", "lastProbeTime", "time", "startTime");
  private static final String PODSET_LABEL = "kueue.x-k8s.io/podset"; // Kueue: set on an admitted job's pods

  /** The snapshot read: listed workloads and what was learned and left out on the way. */
  record Result(List<MapNode> listed, Set<String> jobUids, Map<String, Integer> counts, Instant snapshot) {}

  private final List<KubeObject> objects;
  private final IssueSink problems;
  private final Warnings warnings;
  private final Function<String, String> nodeNames;
  private final Map<String, KubeObject> byUid = new HashMap<>();
  /** Running pods by the uid of the object that finally owns them (a job, or the pod itself). */
  private final Map<String, List<KubeObject>> podsByRoot = new HashMap<>();
  private final Map<String, Integer> counts = new LinkedHashMap<>();
  /** Pod sets from the Workloads' own pod templates (Kueue resolved their priority already). */
  private final PodTemplates pods;
  private final Set<Node> unreadable = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  private WorkloadObjects(List<KubeObject> objects, IssueSink problems, Warnings warnings,
      Function<String, String> nodeNames) {
    this.objects = objects;
    this.problems = problems;
    this.warnings = warnings;
    this.nodeNames = nodeNames;
    this.pods = new PodTemplates(problems, warnings, Priorities.unresolved());
  }

  static boolean handles(KubeObject o) {
    return o.kind().equals(KIND) && o.group().equals(KueueManifestReader.GROUP);
  }

  /**
   * @param snapshot t = 0, or null: the latest time any Workload or Pod records
   * @param nodeNames real node name → scenario node name, or null when the node is not in the scenario
   * @param runtimes estimates each live workload's runtime from its owning object (or the Workload itself),
   *     after learning from the finished ones
   */
  static Result read(List<KubeObject> objects, Instant snapshot, IssueSink problems, Warnings warnings,
      Function<String, String> nodeNames, RuntimeEstimates runtimes) {
    WorkloadObjects r = new WorkloadObjects(objects, problems, warnings, nodeNames);
    return r.read(snapshot, runtimes);
  }

  private Result read(Instant snapshot, RuntimeEstimates runtimes) {
    List<KubeObject> workloads = objects.stream().filter(WorkloadObjects::handles).toList();
    Set<String> jobUids = new LinkedHashSet<>();
    if (workloads.isEmpty()) {
      return new Result(List.of(), jobUids, counts, snapshot);
    }
    for (KubeObject o : objects) {
      String uid = Tree.text(o.node(), "metadata", "uid");
      if (uid != null) {
        byUid.put(uid, o);
      }
    }
    for (KubeObject o : objects) {
      if (o.kind().equals("Pod") && o.group().isEmpty() && Tree.text(o.node(), "spec", "nodeName") != null
          && "Running".equals(Tree.text(o.node(), "status", "phase"))) {
        podsByRoot.computeIfAbsent(root(o), k -> new ArrayList<>()).add(o);
      }
    }
    Instant t0 = snapshot != null ? snapshot : latest();
    learn(workloads, runtimes); // history first: it informs the estimates of the live ones
    List<MapNode> listed = new ArrayList<>();
    for (KubeObject w : workloads) {
      for (Node ref : Tree.items(w.node(), "metadata", "ownerReferences")) {
        String uid = Tree.text(ref, "uid");
        if (uid != null) {
          jobUids.add(uid);
        }
      }
      Node status = Tree.get(w.node(), "status");
      String lq = namespace(w) + "/" + Tree.text(w.node(), "spec", "queueName");
      if (condition(status, "Finished") != null) {
        count("finished (history: their runtimes inform the estimates)");
        continue;
      }
      if ("false".equals(Tree.text(w.node(), "spec", "active"))) {
        count("deactivated (spec.active: false; not queued)");
        continue;
      }
      if (Tree.text(w.node(), "spec", "queueName") == null) {
        problems.report(w.location(), w.node().path(), "Workload " + w.describe() + " has no spec.queueName");
        continue;
      }
      MapNode entry = entry(w, lq, t0, owner(w), runtimes);
      if (entry != null) {
        listed.add(entry);
      }
    }
    return new Result(listed, jobUids, counts, t0);
  }

  /** Teaches {@code runtimes} the runtimes of the finished Workloads among {@code objects} (their queues' history). */
  static void learnRuntimes(List<KubeObject> objects, IssueSink problems, RuntimeEstimates runtimes) {
    new WorkloadObjects(objects, problems, new Warnings(), n -> null)
        .learn(objects.stream().filter(WorkloadObjects::handles).toList(), runtimes);
  }

  private void learn(List<KubeObject> workloads, RuntimeEstimates runtimes) {
    for (KubeObject w : workloads) {
      Node status = Tree.get(w.node(), "status");
      if (condition(status, "Finished") != null) {
        runtimes.observe(namespace(w) + "/" + Tree.text(w.node(), "spec", "queueName"), ranMs(status));
      }
    }
  }

  private MapNode entry(KubeObject w, String lq, Instant t0, KubeObject owner, RuntimeEstimates runtimes) {
    Location at = w.location();
    Node status = Tree.get(w.node(), "status");
    Tree.Map_ m = Tree.map(at, w.node().path()).put("name", namespace(w) + "/" + w.name(), at)
        .put("queue", lq, at);
    m.put("at", Durations.format(relative(t0, Tree.get(w.node(), "metadata", "creationTimestamp"))), at);
    Node priority = Tree.get(w.node(), "spec", "priority");
    if (priority != null) {
      m.put("priority", priority);
    }
    m.put("runtime", runtimes.forJob(owner != null ? owner : w, lq).runtime());
    List<Node> podSets = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (Node ps : Tree.items(w.node(), "spec", "podSets")) {
      String name = Tree.text(ps, "name");
      String count = Tree.text(ps, "count");
      if (count == null || !count.matches("\\d{1,9}")) {
        problems.report(ps.location(), ps.path(), "Workload " + w.describe() + ": pod set " + name
            + " needs a count (a whole number)");
        return null;
      }
      Tree.Map_ p = pods.podSet(w, name == null ? "main" : name, Long.parseLong(count), Tree.get(ps, "template"),
          "Workload " + w.describe() + " pod set " + name);
      Node min = Tree.get(ps, "minCount");
      if (min != null) {
        p.put("minCount", min);
      }
      podSets.add(p.build());
      names.add(name);
    }
    m.put("podSets", Tree.list(at, "podSets", podSets));
    Condition reserved = condition(status, "QuotaReserved");
    if (reserved != null) {
      m.put("quotaReserved", reservation(w, status, reserved, names, t0, owner));
      count(condition(status, "Admitted") != null ? "admitted (holding quota from the start)"
          : "holding quota, waiting for admission checks");
    } else if (condition(status, "Evicted") != null) {
      m.put("evicted", eviction(status, condition(status, "Evicted"), t0));
      count("pending after an eviction");
    } else {
      count("pending");
    }
    return m.build();
  }

  /** The Evicted condition, the Preempted one's reason and status.requeueState. */
  private MapNode eviction(Node status, Condition evicted, Instant t0) {
    Location at = evicted.node().location();
    Tree.Map_ e = Tree.map(at, "evicted").put("at", Durations.format(relative(t0, evicted.time())), at)
        .put("reason", Tree.get(evicted.node(), "reason"));
    Condition preempted = condition(status, "Preempted");
    if (preempted != null) {
      e.put("preemptionReason", Tree.get(preempted.node(), "reason"));
    }
    Node count = Tree.get(status, "requeueState", "count");
    if (count != null) {
      e.put("requeueCount", count);
    }
    Node requeueAt = Tree.get(status, "requeueState", "requeueAt");
    Instant when = instant(requeueAt);
    if (when != null) { // after the snapshot when the backoff runs on
      e.put("requeueAt", Durations.format(when.toEpochMilli() - t0.toEpochMilli()), requeueAt.location());
    }
    return e.build();
  }

  private MapNode reservation(KubeObject w, Node status, Condition reserved, List<String> podSets, Instant t0,
      KubeObject owner) {
    Location at = reserved.node().location();
    Tree.Map_ r = Tree.map(at, "quotaReserved").put("at", Durations.format(relative(t0, reserved.time())), at);
    boolean admitted = condition(status, "Admitted") != null;
    if (!admitted) {
      r.put("admitted", Tree.string(at, "admitted", "false"));
    }
    Condition ready = condition(status, "PodsReady");
    if (admitted && ready != null) {
      r.put("startedAt", Durations.format(relative(t0, ready.time())), ready.node().location());
    }
    Tree.Map_ flavors = Tree.map(at, "flavors");
    Tree.Map_ counts = Tree.map(at, "counts");
    Tree.Map_ nodes = Tree.map(at, "nodes");
    Map<String, List<String>> running = admitted ? runningNodes(owner, podSets) : Map.of();
    for (Node a : Tree.items(status, "admission", "podSetAssignments")) {
      String name = Tree.text(a, "name");
      Node f = Tree.get(a, "flavors");
      if (f != null) {
        flavors.put(name, f);
      }
      Node c = Tree.get(a, "count");
      if (c != null) {
        counts.put(name, c);
      }
      List<String> on = running.getOrDefault(name, topologyNodes(Tree.get(a, "topologyAssignment")));
      List<Node> scenarioNodes = new ArrayList<>();
      for (String real : on) {
        String n = nodeNames.apply(real);
        if (n == null) {
          warnings.add("Workload:node", at, "Workload " + w.describe() + ": a pod runs on node " + real
              + ", which is not among the imported nodes; the kube-scheduler emulation places it");
        } else {
          scenarioNodes.add(Tree.string(at, "nodes", n));
        }
      }
      if (!scenarioNodes.isEmpty()) {
        nodes.put(name, Tree.list(at, "nodes", scenarioNodes));
      }
    }
    r.put("flavors", flavors.build());
    if (!counts.isEmpty()) {
      r.put("counts", counts.build());
    }
    if (!nodes.isEmpty()) {
      r.put("nodes", nodes.build());
    }
    return r.build();
  }

  /**
   * The nodes of a workload's running pods per pod set: Kueue labels an admitted job's pods with their pod
   * set; a single pod set takes every pod.
   */
  private Map<String, List<String>> runningNodes(KubeObject owner, List<String> podSets) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (owner == null) {
      return out;
    }
    String uid = Tree.text(owner.node(), "metadata", "uid");
    for (KubeObject pod : podsByRoot.getOrDefault(uid, List.of())) {
      String ps = Tree.text(pod.node(), "metadata", "labels", PODSET_LABEL);
      if (ps == null && podSets.size() == 1) {
        ps = podSets.get(0);
      }
      if (ps != null) {
        out.computeIfAbsent(ps, k -> new ArrayList<>()).add(Tree.text(pod.node(), "spec", "nodeName"));
      }
    }
    return out;
  }

  /**
   * Node names, one per pod, of a TAS assignment whose lowest level is the hostname: v1beta1's
   * {@code domains[].values/count}, or v1beta2's {@code slices} (per slice {@code domainCount} domains whose
   * lowest-level value is {@code universal} or {@code prefix + roots[i] + suffix}, with {@code podCounts}
   * universal or individual).
   */
  private static List<String> topologyNodes(Node assignment) {
    List<String> out = new ArrayList<>();
    List<Node> levels = Tree.items(assignment, "levels");
    if (levels.isEmpty() || !SchedulingLabels.HOSTNAME.equals(Tree.text(levels.get(levels.size() - 1)))) {
      return out;
    }
    for (Node d : Tree.items(assignment, "domains")) {
      List<Node> values = Tree.items(d, "values");
      repeat(out, values.isEmpty() ? null : Tree.text(values.get(values.size() - 1)), Tree.text(d, "count"));
    }
    for (Node slice : Tree.items(assignment, "slices")) {
      List<Node> perLevel = Tree.items(slice, "valuesPerLevel");
      String domains = Tree.text(slice, "domainCount");
      if (perLevel.isEmpty() || domains == null || !domains.matches("\\d{1,6}")) {
        continue;
      }
      Node host = perLevel.get(perLevel.size() - 1);
      List<Node> roots = Tree.items(host, "individual", "roots");
      List<Node> counts = Tree.items(slice, "podCounts", "individual");
      for (int i = 0; i < Integer.parseInt(domains); i++) {
        String name = Tree.text(host, "universal") != null ? Tree.text(host, "universal") : i >= roots.size() ? null
            : Objects.toString(Tree.text(host, "individual", "prefix"), "") + Tree.text(roots.get(i))
                + Objects.toString(Tree.text(host, "individual", "suffix"), "");
        repeat(out, name, i < counts.size() ? Tree.text(counts.get(i)) : Tree.text(slice, "podCounts", "universal"));
      }
    }
    return out;
  }

  /** {@code count} more pods on node {@code name} (a malformed entry adds none). */
  private static void repeat(List<String> out, String name, String count) {
    if (name == null || count == null || !count.matches("\\d{1,6}")) {
      return;
    }
    for (int i = 0; i < Integer.parseInt(count); i++) {
      out.add(name);
    }
  }

  /** The object that owns a Workload (its job, or the first pod of a pod group), if among the inputs. */
  private KubeObject owner(KubeObject w) {
    for (Node ref : Tree.items(w.node(), "metadata", "ownerReferences")) {
      KubeObject o = byUid.get(Tree.text(ref, "uid"));
      if (o != null) {
        return o;
      }
    }
    return null;
  }

  /** The uid at the top of an object's chain of controller owners among the inputs (itself when none). */
  private String root(KubeObject o) {
    KubeObject at = o;
    for (int depth = 0; depth < 10; depth++) { // job kinds nest two or three deep (JobSet → Job → Pod)
      KubeObject up = null;
      for (Node ref : Tree.items(at.node(), "metadata", "ownerReferences")) {
        KubeObject p = byUid.get(Tree.text(ref, "uid"));
        if (p != null && !handles(p)) {
          up = p;
          break;
        }
      }
      if (up == null) {
        break;
      }
      at = up;
    }
    return String.valueOf(Tree.text(at.node(), "metadata", "uid"));
  }

  /**
   * The latest time the inputs record — creation times, condition transitions, node heartbeats (a kubelet
   * posts one about every minute), managed-field writes: the closest the objects come to saying when
   * {@code kubectl get} ran.
   */
  private Instant latest() {
    Instant[] max = {Instant.EPOCH};
    for (KubeObject o : objects) {
      latest(o.node(), max);
    }
    return max[0];
  }

  private void latest(Node n, Instant[] max) {
    if (n instanceof MapNode m) {
      m.entries().forEach((k, e) -> {
        if (TIME_KEYS.contains(k) && e.value() instanceof batchsim.scenarios.yaml.ScalarNode) {
          Instant t = instant(e.value());
          max[0] = t != null && t.isAfter(max[0]) ? t : max[0];
        } else {
          latest(e.value(), max);
        }
      });
    } else if (n instanceof batchsim.scenarios.yaml.ListNode l) {
      l.items().forEach(i -> latest(i, max));
    }
  }

  /** How long a finished workload ran: PodsReady=True (else QuotaReserved) to Finished. */
  private long ranMs(Node status) {
    Condition end = condition(status, "Finished");
    Condition start = condition(status, "PodsReady");
    start = start != null ? start : condition(status, "QuotaReserved");
    if (start == null || start.instant() == null || end.instant() == null) {
      return -1;
    }
    return end.instant().toEpochMilli() - start.instant().toEpochMilli();
  }

  /** A True condition of that type, or null. */
  private Condition condition(Node status, String type) {
    for (Node c : Tree.items(status, "conditions")) {
      if (type.equals(Tree.text(c, "type")) && "True".equals(Tree.text(c, "status"))) {
        return new Condition(c, Tree.get(c, "lastTransitionTime"), instant(Tree.get(c, "lastTransitionTime")));
      }
    }
    return null;
  }

  private record Condition(Node node, Node time, Instant instant) {}

  /** {@code time} − {@code t0} in ms, never after 0 (a time past the snapshot, or none, is the snapshot). */
  private long relative(Instant t0, Node time) {
    Instant t = instant(time);
    return t == null ? 0 : Math.min(0, t.toEpochMilli() - t0.toEpochMilli());
  }

  private Instant instant(Node n) {
    String s = Tree.text(n);
    if (s == null) {
      return null;
    }
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      if (unreadable.add(n)) { // read again for t = 0 and for the entry: reported once
        problems.report(n.location(), n.path(), "expected an RFC 3339 time such as 2026-11-26T09:30:00Z, got '"
            + s + "'");
      }
      return null;
    }
  }

  private void count(String what) {
    counts.merge(what, 1, Integer::sum);
  }

  private static String namespace(KubeObject o) {
    return o.namespaceOrDefault();
  }
}
