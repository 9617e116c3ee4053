package batchsim.scenarios.imports;

import static batchsim.scenarios.imports.ScenarioDraft.HERE;
import static batchsim.scenarios.imports.ScenarioDraft.baseName;
import static batchsim.scenarios.imports.ScenarioDraft.group;
import static batchsim.scenarios.imports.ScenarioDraft.list;

import batchsim.core.model.Quantity;
import batchsim.scenarios.yaml.Node;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** A Kueue scheduler performance-test generator file: its queues, topology and nodes, and the file as a trace. */
final class GeneratorImport {
  private GeneratorImport() {}

  static void generator(ScenarioDraft d, Path p, GeneratorReader.Config c) {
    if (c == null) {
      return;
    }
    d.header.add("  " + d.rel(p) + ": Kueue scheduler performance-test generator file (" + c.queues().size()
        + " ClusterQueues)");
    GeneratorReader.Topology topo = c.topology();
    Tree.Map_ flavor = Tree.map(HERE, "").put("name", c.flavor(), HERE);
    if (topo != null) {
      List<Node> levels = new ArrayList<>();
      topo.labels().forEach(l -> levels.add(Tree.string(HERE, "", l)));
      d.topologies.add(Tree.map(HERE, "").put("name", topo.name(), HERE).put("levels", Tree.list(HERE, "", levels))
          .build());
      flavor.put("nodeLabels", Tree.map(HERE, "").put(topo.flavorNodeLabel(), "tas", HERE).build())
          .put("topologyName", topo.name(), HERE);
    }
    d.flavors.add(flavor.build());
    Set<String> cohortNames = new LinkedHashSet<>();
    long totalNominal = 0;
    for (GeneratorReader.Queue q : c.queues()) {
      cohortNames.add(q.cohort());
      Tree.Map_ quota = Tree.map(HERE, "").put("name", "cpu", HERE).put("nominalQuota", q.nominalQuota());
      if (q.borrowingLimit() != null) {
        quota.put("borrowingLimit", q.borrowingLimit());
      }
      Tree.Map_ preemption = Tree.map(HERE, "");
      if (q.withinClusterQueue() != null) {
        preemption.put("withinClusterQueue", q.withinClusterQueue());
      }
      if (q.reclaimWithinCohort() != null) {
        preemption.put("reclaimWithinCohort", q.reclaimWithinCohort());
      }
      Tree.Map_ cq = Tree.map(HERE, "").put("name", q.name(), HERE).put("cohortName", q.cohort(), HERE);
      if (!preemption.isEmpty()) {
        cq.put("preemption", preemption.build());
      }
      cq.put("resourceGroups", list(group(List.of("cpu"), c.flavor(), List.of(quota.build()))));
      d.clusterQueues.add(cq.build());
      d.localQueues.add(Tree.map(HERE, "").put("namespace", q.name(), HERE).put("name", q.name(), HERE)
          .put("clusterQueue", q.name(), HERE).build());
      try {
        totalNominal += Quantity.parse("cpu", q.nominalQuota() == null ? "0" : q.nominalQuota().text());
      } catch (IllegalArgumentException e) {
        // reported by the generator reader
      }
    }
    d.queueSources.add("ClusterQueues, LocalQueues and cohorts (" + String.join(", ", cohortNames)
        + ") as Kueue's generator names them, from " + d.rel(p));
    if (topo != null) {
      Tree.Map_ alloc = Tree.map(HERE, "");
      topo.capacity().forEach((r, v) -> alloc.put(r, v, HERE));
      List<Node> shape = new ArrayList<>();
      topo.counts().forEach(n -> shape.add(Tree.integer(HERE, "", n)));
      d.pools.add(Tree.map(HERE, "").put("name", "node", HERE)
          .put("labels", Tree.map(HERE, "").put(topo.flavorNodeLabel(), "tas", HERE).build())
          .put("allocatable", alloc.build())
          .put("topology", Tree.map(HERE, "").put("name", topo.name(), HERE).put("shape", Tree.list(HERE, "", shape))
              .build()).build());
      d.clusterSources.add("the generator's topology: " + topo.nodes() + " nodes labelled as Kueue's generator labels "
          + "them (" + String.join(" x ", topo.counts().stream().map(String::valueOf).toList()) + ")");
    } else {
      long nodes = Math.max(1, (totalNominal + 63_999) / 64_000);
      d.pools.add(Tree.map(HERE, "").put("name", "node", HERE).put("count", Tree.integer(HERE, "", nodes))
          .put("allocatable", Tree.map(HERE, "").put("cpu", "64", HERE).put("memory", "256Gi", HERE)
              .put("pods", "1000", HERE).build()).build());
      d.clusterSources.add("generated: enough 64-cpu nodes for every ClusterQueue's nominal quota, so node capacity never "
          + "binds (Kueue's performance test runs no pods)");
    }
    d.traces.add(Tree.map(HERE, "").put("name", baseName(p), HERE).put("format", "kueue-generator", HERE)
        .put("path", d.rel(p), HERE).build());
  }
}
