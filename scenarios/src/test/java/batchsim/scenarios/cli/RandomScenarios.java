package batchsim.scenarios.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random valid scenarios as trees of maps, lists and strings (see {@link YamlText}): node pools with
 * flavors, ClusterQueues in cohorts over every flavor, LocalQueues, priority classes, workload classes and
 * listed workloads that each fit some node, and a few timeline events. Small, so that a run takes
 * milliseconds; every workload fits a node and its queue's quota, so every scenario can finish.
 */
final class RandomScenarios {
  private RandomScenarios() {}

  static Map<String, Object> generate(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Map<String, Object> s = map("name", "fuzz-" + Long.toUnsignedString(seed, 36), "seed", "" + r.nextInt(1, 1000));
    s.put("horizon", r.nextInt(6, 48) + "h");
    if (r.nextBoolean()) {
      s.put("sampleInterval", r.nextInt(10, 60) + "m");
    }
    int pools = r.nextInt(1, 4);
    boolean gpus = r.nextBoolean();
    List<Object> nodePools = new ArrayList<>();
    List<Object> flavors = new ArrayList<>();
    List<String> nodeNames = new ArrayList<>();
    for (int i = 0; i < pools; i++) {
      String name = "p" + i;
      boolean gpuPool = gpus && i == 0;
      Map<String, Object> alloc = map("cpu", "" + 8 * r.nextInt(1, 9), "memory", 32 * r.nextInt(1, 5) + "Gi");
      if (gpuPool) {
        alloc.put("nvidia.com/gpu", "8");
      }
      int count = r.nextInt(1, 5);
      nodePools.add(map("name", name, "count", "" + count, "labels", map("tier", name), "allocatable", alloc));
      flavors.add(map("name", "f" + i, "nodeLabels", map("tier", name)));
      for (int n = 0; n < count; n++) {
        nodeNames.add(name + "-" + n);
      }
    }
    s.put("cluster", map("nodePools", nodePools));
    s.put("resourceFlavors", flavors);

    int cqs = r.nextInt(1, 4);
    int cohorts = r.nextInt(0, 3);
    if (cohorts > 0) {
      List<Object> cs = new ArrayList<>();
      for (int i = 0; i < cohorts; i++) {
        Map<String, Object> c = map("name", "c" + i);
        if (i > 0 && r.nextBoolean()) {
          c.put("parentName", "c0");
        }
        cs.add(c);
      }
      s.put("cohorts", cs);
    }
    List<String> covered = gpus ? List.of("cpu", "memory", "nvidia.com/gpu") : List.of("cpu", "memory");
    List<Object> clusterQueues = new ArrayList<>();
    List<Object> localQueues = new ArrayList<>();
    for (int q = 0; q < cqs; q++) {
      Map<String, Object> cq = map("name", "cq" + q);
      boolean inCohort = cohorts > 0 && r.nextInt(4) > 0;
      if (inCohort) {
        cq.put("cohortName", "c" + r.nextInt(cohorts));
      }
      cq.put("queueingStrategy", r.nextBoolean() ? "BestEffortFIFO" : "StrictFIFO");
      cq.put("preemption", map("withinClusterQueue", pick(r, "Never", "LowerPriority", "LowerOrNewerEqualPriority"),
          "reclaimWithinCohort", pick(r, "Never", "LowerPriority", "Any")));
      List<Object> fl = new ArrayList<>();
      for (int i = 0; i < pools; i++) {
        List<Object> res = new ArrayList<>();
        res.add(quota(r, inCohort, "cpu", "" + 8 * r.nextInt(1, 5)));
        res.add(quota(r, inCohort, "memory", 32 * r.nextInt(1, 5) + "Gi"));
        if (gpus) {
          res.add(map("name", "nvidia.com/gpu", "nominalQuota", i == 0 ? "" + 8 * r.nextInt(1, 3) : "0"));
        }
        fl.add(map("name", "f" + i, "resources", res));
      }
      cq.put("resourceGroups", List.of(map("coveredResources", new ArrayList<Object>(covered), "flavors", fl)));
      clusterQueues.add(cq);
      localQueues.add(map("namespace", "ns" + q, "name", "lq", "clusterQueue", "cq" + q));
    }
    s.put("clusterQueues", clusterQueues);
    s.put("localQueues", localQueues);
    s.put("priorityClasses", List.of(map("name", "high", "value", "100"), map("name", "low", "value", "1")));

    List<Object> classes = new ArrayList<>();
    for (int i = 0, n = r.nextInt(1, 4); i < n; i++) {
      Map<String, Object> c = map("name", "w" + i, "queue", "ns" + r.nextInt(cqs) + "/lq");
      if (r.nextBoolean()) {
        c.put("priorityClass", pick(r, "high", "low"));
      }
      c.put("arrival", r.nextBoolean() ? map("poisson", map("meanGap", r.nextInt(5, 60) + "m"))
          : map("every", r.nextInt(5, 60) + "m"));
      c.put("count", "" + r.nextInt(1, 15));
      c.put("runtime", r.nextBoolean() ? r.nextInt(10, 120) + "m"
          : map("exponential", map("mean", r.nextInt(10, 120) + "m")));
      c.put("podSets", List.of(podSet(r, gpus)));
      classes.add(c);
    }
    List<Object> listed = new ArrayList<>();
    for (int i = 0, n = r.nextInt(0, 3); i < n; i++) {
      listed.add(map("name", "l" + i, "queue", "ns" + r.nextInt(cqs) + "/lq", "at", r.nextInt(0, 120) + "m",
          "runtime", r.nextInt(10, 90) + "m", "podSets", List.of(podSet(r, gpus))));
    }
    Map<String, Object> workloads = map("classes", classes);
    if (!listed.isEmpty()) {
      workloads.put("list", listed);
    }
    s.put("workloads", workloads);

    List<Object> events = new ArrayList<>();
    for (int i = 0, n = r.nextInt(0, 4); i < n; i++) {
      String at = r.nextInt(1, 5) + "h";
      String node = nodeNames.get(r.nextInt(nodeNames.size()));
      switch (r.nextInt(4)) {
        case 0 -> events.add(map("at", at, "failNodes", map("nodes", List.of(node), "for", r.nextInt(10, 90) + "m")));
        case 1 -> events.add(map("at", at, "restartKueue", map("downFor", r.nextInt(1, 10) + "m")));
        case 2 -> {
          events.add(map("at", at, "taintNodes", map("nodes", List.of(node), "key", "maint", "value", "x",
              "effect", "NoSchedule")));
          events.add(map("at", r.nextInt(5, 8) + "h", "untaintNodes", map("nodes", List.of(node), "key", "maint")));
        }
        default -> events.add(map("at", at, "addNodes", map("pool", "p" + r.nextInt(pools), "count", "1")));
      }
    }
    if (!events.isEmpty()) {
      s.put("events", events);
    }
    return s;
  }

  /** A pod set that fits one node of any pool (8 cpu, 32Gi at least) and any queue's quota. */
  private static Map<String, Object> podSet(SplittableRandom r, boolean gpus) {
    Map<String, Object> req = map("cpu", "" + r.nextInt(1, 5), "memory", r.nextInt(1, 17) + "Gi");
    Map<String, Object> ps = map("count", "" + r.nextInt(1, 3), "requests", req);
    if (gpus && r.nextInt(3) == 0) {
      req.put("nvidia.com/gpu", "" + r.nextInt(1, 5));
      ps.put("count", "1");
    }
    return ps;
  }

  /** A quota; in a cohort, sometimes with a borrowing limit (which needs a cohort to borrow from). */
  private static Map<String, Object> quota(SplittableRandom r, boolean inCohort, String name, String nominal) {
    Map<String, Object> q = map("name", name, "nominalQuota", nominal);
    if (inCohort && r.nextInt(3) == 0) {
      q.put("borrowingLimit", nominal);
    }
    return q;
  }

  private static String pick(SplittableRandom r, String... options) {
    return options[r.nextInt(options.length)];
  }

  /** A mutable, ordered map of alternating keys and values. */
  static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }
}
