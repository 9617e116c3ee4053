package batchsim.scenarios.imports;

import static batchsim.scenarios.imports.ScenarioDraft.HERE;
import static batchsim.scenarios.imports.ScenarioDraft.TRACE_RESOURCES;
import static batchsim.scenarios.imports.ScenarioDraft.dns;
import static batchsim.scenarios.imports.ScenarioDraft.group;
import static batchsim.scenarios.imports.ScenarioDraft.list;

import batchsim.core.model.Quantity;
import batchsim.scenarios.imports.TraceImport.TraceQueues;
import batchsim.scenarios.yaml.Node;
import batchsim.workloads.trace.TraceFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Queues the inputs do not give: one ClusterQueue per trace queue value (quota in proportion to demand),
 * or one per LocalQueue the job manifests name.
 */
final class GeneratedQueues {
  private GeneratedQueues() {}

  /** One ClusterQueue per trace queue value in a cohort per trace, quotas in proportion to demand. */
  static void generateQueues(ScenarioDraft d, String scenario) {
    if (d.traceQueues.isEmpty()) {
      generateJobQueues(d);
      return;
    }
    d.flavors.add(Tree.map(HERE, "").put("name", "default", HERE).build());
    for (TraceQueues t : d.traceQueues) {
      List<String> own = TraceImport.own(d, t);
      boolean other = t.values().size() > own.size();
      long totalDemand = t.demand().values().stream().mapToLong(Long::longValue).sum();
      List<String> resources = TRACE_RESOURCES.stream().filter(r -> t.resources().contains(r) && !r.equals("pods"))
          .toList();
      if (t.values().size() > 1) {
        d.cohorts.add(Tree.map(HERE, "").put("name", t.trace(), HERE).build());
      }
      List<Double> shares = new ArrayList<>();
      for (String v : own) {
        shares.add(totalDemand == 0 ? 1.0 / own.size() : t.demand().get(v) / (double) totalDemand);
      }
      Map<String, long[]> quotas = new LinkedHashMap<>();
      for (String r : resources) {
        quotas.put(r, split(d.capacity.getOrDefault(r, 0L), shares, granule(r)));
      }
      for (int i = 0; i < own.size(); i++) {
        String v = own.get(i);
        Map<String, Long> q = new LinkedHashMap<>();
        for (String r : resources) {
          q.put(r, t.format() == TraceFormat.PHILLY && !d.vcNodes.isEmpty() && r.equals("nvidia.com/gpu")
              ? d.vcNodes.get(v) * d.options.gpusPerNode() : quotas.get(r)[i]);
        }
        clusterQueue(d, t, TraceImport.cq(t, v), q, t.values().size() > 1);
        d.localQueues.add(Tree.map(HERE, "").put("namespace", t.trace(), HERE)
            .put("name", t.attribute() == null ? "main" : dns(v), HERE)
            .put("clusterQueue", TraceImport.cq(t, v), HERE).build());
      }
      if (other) {
        Map<String, Long> none = new LinkedHashMap<>();
        resources.forEach(r -> none.put(r, 0L)); // borrows only
        clusterQueue(d, t, t.trace() + "-other", none, true);
        d.localQueues.add(Tree.map(HERE, "").put("namespace", t.trace(), HERE).put("name", "other", HERE)
            .put("clusterQueue", t.trace() + "-other", HERE).build());
      }
      d.queueSources.add("generated for " + t.trace() + ": " + (t.attribute() == null ? "one ClusterQueue"
          : "one ClusterQueue per " + t.attribute() + (other ? " (the rest share " + t.trace() + "-other)" : "")
          + " in cohort " + t.trace()) + "; nominal quota "
          + (t.format() == TraceFormat.PHILLY && !d.vcNodes.isEmpty()
          ? "= VC nodes x " + d.options.gpusPerNode() + " GPUs"
          : "in proportion to each queue's demand (job size x runtime), summing to the cluster"));
    }
  }

  private static void clusterQueue(ScenarioDraft d, TraceQueues t, String name, Map<String, Long> amounts,
      boolean cohort) {
    List<Node> quotas = new ArrayList<>();
    amounts.forEach((r, amount) -> quotas.add(Tree.map(HERE, "").put("name", r, HERE)
        .put("nominalQuota", Quantities.exact(r, amount), HERE).build()));
    Tree.Map_ cq = Tree.map(HERE, "").put("name", name, HERE);
    if (cohort) {
      cq.put("cohortName", t.trace(), HERE);
    }
    cq.put("resourceGroups", list(group(List.copyOf(amounts.keySet()), "default", quotas)));
    d.clusterQueues.add(cq.build());
  }

  /** Quotas are whole cores, whole GiB, whole units. */
  private static long granule(String resource) {
    return Quantity.isMilli(resource) ? 1000 : Quantity.isBytes(resource) ? 1L << 30 : 1;
  }

  /**
   * {@code total} split by {@code shares} in whole granules, largest remainders first, so that the quotas
   * add up to the cluster exactly (a job as big as the cluster must fit the cohort).
   */
  static long[] split(long total, List<Double> shares, long granule) {
    long units = total / granule;
    long[] out = new long[shares.size()];
    double[] rest = new double[shares.size()];
    long given = 0;
    for (int i = 0; i < out.length; i++) {
      double exact = units * shares.get(i);
      out[i] = (long) Math.floor(exact);
      rest[i] = exact - out[i];
      given += out[i];
    }
    for (long left = units - given; left > 0; left--) {
      int best = 0;
      for (int i = 1; i < rest.length; i++) {
        if (rest[i] > rest[best]) {
          best = i;
        }
      }
      out[best]++;
      rest[best] = -1;
    }
    for (int i = 0; i < out.length; i++) {
      out[i] *= granule;
    }
    return out;
  }

  /** Job templates without Kueue objects: one ClusterQueue per LocalQueue they name, owning the cluster. */
  private static void generateJobQueues(ScenarioDraft d) {
    Set<String> queues = new LinkedHashSet<>();
    Set<String> resources = new LinkedHashSet<>();
    for (Node c : d.classes) {
      String q = Tree.text(c, "queue");
      if (q != null) {
        queues.add(q);
      }
    }
    d.capacity.keySet().stream().filter(r -> !r.equals("pods")).forEach(resources::add);
    if (queues.isEmpty()) {
      return;
    }
    d.flavors.add(Tree.map(HERE, "").put("name", "default", HERE).build());
    Set<String> cqs = new LinkedHashSet<>(); // LocalQueues of one name in several namespaces share one
    queues.forEach(q -> cqs.add(q.substring(q.indexOf('/') + 1)));
    Set<String> made = new LinkedHashSet<>();
    for (String q : queues) {
      String ns = q.contains("/") ? q.substring(0, q.indexOf('/')) : null;
      String name = q.substring(q.indexOf('/') + 1);
      List<Node> quotas = new ArrayList<>();
      for (String r : resources) {
        quotas.add(Tree.map(HERE, "").put("name", r, HERE).put("nominalQuota",
            Quantities.exact(r, d.capacity.getOrDefault(r, 0L) / cqs.size()), HERE).build());
      }
      if (made.add(name)) {
        d.clusterQueues.add(Tree.map(HERE, "").put("name", name, HERE)
            .put("resourceGroups", list(group(List.copyOf(resources), "default", quotas))).build());
      }
      Tree.Map_ lq = Tree.map(HERE, "");
      if (ns != null) {
        lq.put("namespace", ns, HERE);
      }
      d.localQueues.add(lq.put("name", name, HERE).put("clusterQueue", name, HERE).build());
    }
    d.queueSources.add("generated: one ClusterQueue per LocalQueue the job manifests name, sharing the cluster evenly");
  }
}
