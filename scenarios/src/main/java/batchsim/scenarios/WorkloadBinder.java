package batchsim.scenarios;

import batchsim.core.model.Durations;
import batchsim.core.model.Eviction;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.Reservation;
import batchsim.core.model.WorkloadSpec;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.ArrivalProcess;
import batchsim.workloads.Distribution;
import batchsim.workloads.WorkloadClass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Binds {@code workloads.classes} (generated arrivals) and {@code workloads.list} (listed workloads). */
final class WorkloadBinder {
  /** The pod-set name when a workload has only one and it is not named (as Kueue's Job integration does). */
  static final String DEFAULT_POD_SET = "main";
  /** Kueue's Evicted condition reasons (pkg/workload, kueue.WorkloadEvictedBy*) a pending workload may carry. */
  private static final List<String> EVICTION_REASONS = List.of("Preempted", "PodsReadyTimeout", "AdmissionCheck",
      "ClusterQueueStopped", "LocalQueueStopped", "NodeFailures", "Deactivated");
  private static final List<String> PREEMPTION_REASONS = List.of("InClusterQueue", "InCohortReclamation",
      "InCohortFairSharing", "InCohortReclaimWhileBorrowing");

  private final Problems problems;
  private final KubeBinder kube;
  /** Binds podSet {@code topology:} blocks (set by ScenarioBinder so level names are checked). */
  TopologyBinder topology;

  WorkloadBinder(KubeBinder kube) {
    this.kube = kube;
    this.problems = kube.problems();
  }

  List<Spec.WorkloadClass> classes(List<Node> items) {
    List<Spec.WorkloadClass> out = new ArrayList<>();
    for (Node n : items) {
      Fields f = Fields.of(n, problems, "name", "queue", "priorityClass", "priority", "arrival", "count", "start",
          "until", "runtime", "podSets", "manifest", "terminationGracePeriod", "scaling");
      ScalarNode name = f.requiredName("name");
      // manifest: a Job/JobSet/Pod group file gives queue, priority class and pod sets the class does not
      Fields manifest = f.has("manifest")
          ? Fields.of(ManifestTemplates.load(f.get("manifest"), problems), problems, "queue", "priorityClass", "podSets")
          : null;
      ScalarNode queue = manifest == null || f.has("queue") ? f.requiredName("queue")
          : manifest.has("queue") ? manifest.requiredName("queue")
          : manifest.present() ? f.requiredName("queue") : null; // an unreadable manifest is reported already
      Spec.Priority priority = manifest != null && !f.has("priority") && !f.has("priorityClass")
          ? priority(manifest) : priority(f);
      Node arrivalNode = f.required("arrival");
      ArrivalProcess arrival = arrivalNode == null ? null : arrival(arrivalNode);
      long count = f.integer("count", WorkloadClass.UNLIMITED, 0);
      long start = f.duration("start", 0);
      long until = f.duration("until", Long.MAX_VALUE);
      if (f.has("until") && until != Long.MAX_VALUE && until <= start) {
        problems.at(f.get("until"), "until (" + Durations.format(until) + ") must be after start ("
            + Durations.format(start) + ")");
      }
      Node runtimeNode = f.required("runtime");
      Distribution runtime = runtimeNode == null ? null : runtime(runtimeNode);
      // the pods' terminationGracePeriodSeconds; absent: kueue.terminationGracePeriod
      long grace = f.duration("terminationGracePeriod", WorkloadSpec.SCENARIO_GRACE);
      List<Spec.PodSet> podSets = podSets(manifest != null && !f.has("podSets") ? manifest : f);
      // [elastic] the class's scaling pattern (ElasticBinder)
      out.add(new Spec.WorkloadClass(name, queue, priority, arrival, arrivalNode, count, start, until, runtime,
          podSets, grace, ElasticBinder.steps(f.get("scaling"), podSets, problems), f.get("scaling")));
    }
    return out;
  }

  List<Spec.ListedWorkload> listed(List<Node> items) {
    List<Spec.ListedWorkload> out = new ArrayList<>();
    for (Node n : items) {
      Fields f = Fields.of(n, problems, "name", "queue", "at", "priorityClass", "priority", "runtime", "podSets",
          "quotaReserved", "evicted");
      ScalarNode name = f.requiredName("name");
      ScalarNode queue = f.requiredName("queue");
      Spec.Priority priority = priority(f);
      Long at = f.has("at") ? Values.signedDuration(f.get("at"), problems) : Long.valueOf(0);
      Distribution runtime = runtime(f.required("runtime"));
      List<Spec.PodSet> podSets = podSets(f);
      Spec.ListedReservation reserved = f.has("quotaReserved") ? reservation(f.get("quotaReserved"), podSets) : null;
      if (at != null && reserved != null && reserved.reservedAtMs() < at) {
        problems.at(reserved.at(), "quotaReserved.at (" + Durations.format(reserved.reservedAtMs())
            + ") is before the workload was created (at: " + Durations.format(at) + ")");
      }
      Eviction evicted = f.has("evicted") && f.atMostOne("quotaReserved", "evicted")
          ? eviction(f.get("evicted"), at == null ? Long.MIN_VALUE : at) : null;
      out.add(new Spec.ListedWorkload(name, queue, priority, at == null ? 0 : at, runtime, podSets, reserved, evicted));
    }
    return out;
  }

  /**
   * {@code quotaReserved: {at, admitted, startedAt, flavors, counts, nodes}}: the quota a workload holds when
   * the run starts (an imported Workload's status.admission); every time at or before 0.
   */
  private Spec.ListedReservation reservation(Node node, List<Spec.PodSet> podSets) {
    Fields r = Fields.of(node, problems, "at", "admitted", "startedAt", "flavors", "counts", "nodes");
    Long at = r.has("at") ? notAfterStart(r.get("at")) : Long.valueOf(0);
    Long started = r.has("startedAt") ? notAfterStart(r.get("startedAt")) : Long.valueOf(Reservation.NOT_STARTED);
    boolean admitted = r.bool("admitted", true);
    if (at != null && started != null && started != Reservation.NOT_STARTED && started < at) {
      problems.at(r.get("startedAt"), "startedAt (" + Durations.format(started) + ") is before its quota was "
          + "reserved (at: " + Durations.format(at) + ")");
    }
    if (!admitted && r.has("startedAt")) {
      problems.at(r.get("startedAt"), "a workload whose admission checks are not all Ready (admitted: false) has "
          + "no running pods; drop startedAt or set admitted: true");
    }
    List<String> names = podSets.stream().map(Spec.PodSet::name).toList();
    List<Map<String, ScalarNode>> flavors = new ArrayList<>();
    List<List<ScalarNode>> nodes = new ArrayList<>();
    int[] counts = new int[podSets.size()];
    for (int i = 0; i < podSets.size(); i++) {
      flavors.add(new LinkedHashMap<>());
      nodes.add(new ArrayList<>());
      counts[i] = podSets.get(i).count();
    }
    r.required("flavors");
    for (var e : perPodSet(r, "flavors", names).entrySet()) {
      Node v = e.getValue();
      Map<String, ScalarNode> byResource = flavors.get(e.getKey());
      if (v instanceof ScalarNode one) { // one flavor for every resource of the pod set
        podSets.get(e.getKey()).requests().forEach(a -> byResource.put(a.resource().text(), one));
      } else {
        MapNode m = anyMap(v);
        (m == null ? Map.<String, MapNode.Entry>of() : m.entries()).forEach((k, x) -> {
          ScalarNode flavor = Values.scalar(x.value(), problems, "a flavor name");
          if (flavor != null) {
            byResource.put(k, flavor);
          }
        });
      }
    }
    for (var e : perPodSet(r, "counts", names).entrySet()) {
      Spec.PodSet ps = podSets.get(e.getKey());
      Integer c = Values.int32(e.getValue(), problems, Math.max(1, ps.minCount()));
      if (c != null && c > ps.count()) {
        problems.at(e.getValue(), "pod set " + ps.name() + " has " + ps.count() + " pods; " + c + " cannot be admitted");
      } else if (c != null) {
        counts[e.getKey()] = c;
      }
    }
    for (var e : perPodSet(r, "nodes", names).entrySet()) {
      for (Node x : Fields.items(e.getValue(), problems)) {
        ScalarNode s = Values.scalar(x, problems, "a node name");
        if (s != null) {
          nodes.get(e.getKey()).add(s);
        }
      }
      if (nodes.get(e.getKey()).size() > counts[e.getKey()]) {
        problems.at(e.getValue(), nodes.get(e.getKey()).size() + " nodes for " + counts[e.getKey()]
            + " admitted pods of pod set " + names.get(e.getKey()));
      }
    }
    if (!admitted && r.has("nodes")) {
      problems.at(r.get("nodes"), "a workload whose admission checks are not all Ready (admitted: false) has no "
          + "pods yet; drop nodes or set admitted: true");
    }
    return new Spec.ListedReservation(node, at == null ? 0 : at, admitted,
        started == null ? Reservation.NOT_STARTED : started, flavors, counts, nodes);
  }

  /**
   * {@code evicted: {at, reason, preemptionReason, requeueCount, requeueAt}}: pending after an eviction before
   * the run, with Kueue's requeue state (an imported Workload's Evicted condition and status.requeueState).
   */
  private Eviction eviction(Node node, long createdMs) {
    Fields e = Fields.of(node, problems, "at", "reason", "preemptionReason", "requeueCount", "requeueAt");
    Long at = e.has("at") ? notAfterStart(e.get("at")) : Long.valueOf(0);
    if (at != null && at < createdMs) {
      problems.at(e.get("at"), "evicted.at (" + Durations.format(at) + ") is before the workload was created (at: "
          + Durations.format(createdMs) + ")");
    }
    ScalarNode reason = e.requiredName("reason");
    if (reason != null && !EVICTION_REASONS.contains(reason.text())) {
      problems.at(reason, "unknown eviction reason '" + reason.text() + "' (Kueue's: " + String.join(", ",
          EVICTION_REASONS) + ")");
    }
    ScalarNode preemption = e.optionalName("preemptionReason");
    if (preemption != null && !PREEMPTION_REASONS.contains(preemption.text())) {
      problems.at(preemption, "unknown preemption reason '" + preemption.text() + "' (Kueue's: "
          + String.join(", ", PREEMPTION_REASONS) + ")");
    }
    int count = e.int32("requeueCount", 0, 0);
    Long requeueAt = e.has("requeueAt") ? Values.signedDuration(e.get("requeueAt"), problems)
        : Long.valueOf(Eviction.NO_REQUEUE_AT);
    return at == null || reason == null || requeueAt == null ? null
        : new Eviction(at, reason.text(), preemption == null ? null : preemption.text(), count, requeueAt);
  }

  private Long notAfterStart(Node n) {
    Long v = Values.signedDuration(n, problems);
    if (v != null && v > 0) {
      problems.at(n, "a time in the snapshot lies at or before the run's start (0s or negative, e.g. -40m), got "
          + Durations.format(v));
      return null;
    }
    return v;
  }

  private MapNode anyMap(Node n) {
    if (n instanceof MapNode m) {
      return m;
    }
    problems.wrongType(n, "a map");
    return null;
  }

  /** {@code key: {podSetName: value}}: each value by its pod set's index; unknown names are errors. */
  private Map<Integer, Node> perPodSet(Fields r, String key, List<String> names) {
    Map<Integer, Node> out = new java.util.TreeMap<>();
    if (!r.has(key)) {
      return out;
    }
    MapNode m = anyMap(r.get(key));
    if (m == null) {
      return out;
    }
    m.entries().forEach((k, e) -> {
      int i = names.indexOf(k);
      if (i < 0) {
        problems.at(e.key(), "no pod set named '" + k + "' (pod sets: " + String.join(", ", names) + ")");
      } else {
        out.put(i, e.value());
      }
    });
    return out;
  }

  /** {@code priorityClass: high} or {@code priority: 10}, not both; Kueue's default priority is 0. */
  private Spec.Priority priority(Fields f) {
    if (!f.atMostOne("priorityClass", "priority")) {
      return Spec.Priority.DEFAULT;
    }
    if (f.has("priorityClass")) {
      return new Spec.Priority(f.optionalName("priorityClass"), 0);
    }
    return new Spec.Priority(null, f.int32("priority", 0, Integer.MIN_VALUE));
  }

  private ArrivalProcess arrival(Node node) {
    Fields a = Fields.of(node, problems, "poisson", "every", "at");
    String kind = a.exactlyOne("arrival", "poisson", "every", "at");
    if (kind == null) {
      return null;
    }
    switch (kind) {
      case "poisson": {
        Fields p = a.map("poisson", "rate", "meanGap");
        String by = p.exactlyOne("poisson", "rate", "meanGap");
        Double gap = by == null ? null
            : by.equals("rate") ? Values.rateAsMeanGapMs(p.get("rate"), problems)
            : toDouble(Values.positiveDuration(p.get("meanGap"), problems));
        return gap == null ? null : new ArrivalProcess.Poisson(gap);
      }
      case "every": {
        Long interval = Values.duration(a.get("every"), problems);
        return interval == null ? null : new ArrivalProcess.FixedInterval(interval);
      }
      default: {
        List<Long> times = new ArrayList<>();
        Node previous = null;
        for (Node t : a.requiredList("at", true)) {
          Long ms = Values.duration(t, problems);
          if (ms == null) {
            return null;
          }
          if (!times.isEmpty() && ms < times.get(times.size() - 1)) {
            problems.at(t, "arrival times must be ascending: " + t.describe() + " comes after "
                + previous.describe());
            return null;
          }
          times.add(ms);
          previous = t;
        }
        return new ArrivalProcess.ExplicitTimes(times);
      }
    }
  }

  /** A bare duration is a constant runtime; otherwise exactly one named distribution. */
  Distribution runtime(Node node) {
    if (node instanceof ScalarNode) {
      Long ms = Values.duration(node, problems);
      return ms == null ? null : new Distribution.Constant(ms);
    }
    Fields r = Fields.of(node, problems, "constant", "exponential", "lognormal", "uniform");
    String kind = r.exactlyOne("runtime", "constant", "exponential", "lognormal", "uniform");
    if (kind == null) {
      return null;
    }
    switch (kind) {
      case "constant": {
        Long ms = Values.duration(r.get("constant"), problems);
        return ms == null ? null : new Distribution.Constant(ms);
      }
      case "exponential": {
        Fields e = r.map("exponential", "mean");
        Long mean = Values.positiveDuration(e.required("mean"), problems);
        return mean == null ? null : new Distribution.Exponential(mean);
      }
      case "lognormal": {
        Fields l = r.map("lognormal", "median", "p99");
        Long median = Values.positiveDuration(l.required("median"), problems);
        Long p99 = Values.duration(l.required("p99"), problems);
        if (median == null || p99 == null) {
          return null;
        }
        if (p99 < median) {
          problems.at(l.get("p99"), "p99 (" + Durations.format(p99) + ") must be >= median ("
              + Durations.format(median) + ")");
          return null;
        }
        return new Distribution.LogNormal(median, p99);
      }
      default: {
        Fields u = r.map("uniform", "min", "max");
        Long min = Values.duration(u.required("min"), problems);
        Long max = Values.duration(u.required("max"), problems);
        if (min == null || max == null) {
          return null;
        }
        if (max < min) {
          problems.at(u.get("max"), "max (" + Durations.format(max) + ") must be >= min ("
              + Durations.format(min) + ")");
          return null;
        }
        return new Distribution.Uniform(min, max);
      }
    }
  }

  private List<Spec.PodSet> podSets(Fields owner) {
    List<Node> items = owner.requiredList("podSets", true);
    List<Spec.PodSet> out = new ArrayList<>();
    Map<String, Node> names = new LinkedHashMap<>();
    for (Node n : items) {
      Fields f = Fields.of(n, problems, "name", "count", "minCount", "requests", "nodeSelector", "tolerations",
          "topology");
      ScalarNode nameNode = items.size() == 1 ? f.optionalName("name") : f.requiredName("name");
      String name = nameNode != null ? nameNode.text() : items.size() == 1 ? DEFAULT_POD_SET : null;
      if (nameNode != null && names.putIfAbsent(name, nameNode) != null) {
        problems.at(nameNode, "duplicate pod set name '" + name + "'");
      }
      Integer count = f.has("count") ? Values.int32(f.get("count"), problems, 1) : Integer.valueOf(1);
      int minCount = f.int32("minCount", PodSetSpec.NO_MIN_COUNT, 1);
      if (count != null && minCount != PodSetSpec.NO_MIN_COUNT && minCount > count) {
        problems.at(f.get("minCount"), "minCount " + minCount + " exceeds count " + count);
      }
      List<Spec.Amount> requests = kube.amounts(f.required("requests"));
      if (topology == null && f.has("topology")) {
        topology = new TopologyBinder(kube);
      }
      out.add(new Spec.PodSet(name, count == null ? 1 : count, minCount, List.copyOf(requests), f.stringMap("nodeSelector"),
          kube.tolerations(f.list("tolerations")), topology == null ? null : topology.request(f, count == null ? 0 : count)));
    }
    return out;
  }

  private static Double toDouble(Long v) {
    return v == null ? null : v.doubleValue();
  }
}
