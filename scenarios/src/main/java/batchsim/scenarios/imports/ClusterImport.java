package batchsim.scenarios.imports;

import static batchsim.scenarios.imports.ScenarioDraft.HERE;
import static batchsim.scenarios.imports.ScenarioDraft.location;

import batchsim.core.model.Taint;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.imports.TraceImport.TraceQueues;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.workloads.trace.AlibabaNodeReader;
import batchsim.workloads.trace.GpuOptions;
import batchsim.workloads.trace.NodePools;
import batchsim.workloads.trace.NodeRecord;
import batchsim.workloads.trace.OnError;
import batchsim.workloads.trace.TraceFormatException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The cluster section: node pools from Node objects, an Alibaba node file by path, or placeholder nodes. */
final class ClusterImport {
  /** Generated quotas and placeholder clusters aim at this utilization of the trace's mean demand. */
  private static final double TARGET_LOAD = 0.7;

  private ClusterImport() {}

  static void alibabaNodes(ScenarioDraft d, Path p) {
    List<NodeRecord> nodes = new ArrayList<>();
    try (AlibabaNodeReader r = AlibabaNodeReader.open(p, p.toString(), OnError.SKIP, GpuOptions.DEFAULT)) {
      NodeRecord n;
      while ((n = r.next()) != null) {
        nodes.add(n);
      }
      r.skipped().forEach(e -> d.warnings.add("alibaba-nodes:" + e.line(), location(e), e.detail() + "; line skipped"));
    } catch (TraceFormatException e) {
      d.errors.add(e.getMessage());
      return;
    }
    List<NodePools.Pool> grouped = NodePools.group(nodes, n -> NodePools.describe(n, GpuOptions.DEFAULT));
    grouped.forEach(pool -> pool.allocatable().forEach((r, v) -> d.capacity.merge(r, v * pool.count(), Long::sum)));
    d.nodesFrom.add(Tree.map(HERE, "").put("format", "alibaba-nodes", HERE).put("path", d.rel(p), HERE).build());
    d.header.add("  " + d.rel(p) + ": " + nodes.size() + " Alibaba nodes (" + grouped.size() + " kinds), read when the "
        + "scenario loads");
    d.clusterSources.add("the nodes of " + d.rel(p) + " (cluster.nodesFrom; identical nodes become one pool)");
  }

  /**
   * The Node objects among {@code objects} as pools of nodes that schedule alike, NotReady and cordoned ones
   * made so at 0s by timeline events; the real → scenario node names go to {@code d.nodeNames} and a comment.
   */
  static void kubectlNodes(ScenarioDraft d, List<KubeObject> objects) {
    NodeListReader.Cluster c = NodeListReader.cluster(objects, SchedulingLabels.of(objects), d.sink, d.warnings);
    if (c.scenarioNames().isEmpty()) {
      return;
    }
    c.pools().forEach(p -> d.pools.add(pool(d, p)));
    d.nodeNames.putAll(c.scenarioNames());
    nodeEvent(d, "setNodeNotReady", c.notReady(), "not Ready in the node list: NotReady from the start");
    nodeEvent(d, "cordonNodes", c.cordoned(), "cordoned (spec.unschedulable) in the node list");
    d.clusterSources.add(c.scenarioNames().size() + " nodes from kubectl output, grouped into " + c.pools().size()
        + " pools of nodes alike in allocatable, taints and the labels flavors, topologies and jobs select on"
        + (c.droppedLabels().isEmpty() ? "" : "; labels left out: " + String.join(", ", c.droppedLabels())));
    List<String> names = new ArrayList<>();
    c.scenarioNames().forEach((real, scenario) -> names.add(real + "=" + scenario));
    d.clusterSources.add("Node names (real=scenario): " + String.join(" ", names));
  }

  private static void nodeEvent(ScenarioDraft d, String action, List<String> nodes, String why) {
    if (nodes.isEmpty()) {
      return;
    }
    List<Node> names = new ArrayList<>();
    nodes.forEach(n -> names.add(Tree.string(HERE, "", n)));
    MapNode e = Tree.map(HERE, "").put("at", "0s", HERE).put(action, Tree.map(HERE, "")
        .put("nodes", Tree.list(HERE, "", names)).build()).build();
    d.events.add(e);
    d.comments.put(e, List.of(nodes.size() + " node(s) " + why));
  }

  static Node pool(ScenarioDraft d, NodePools.Pool p) {
    Tree.Map_ m = Tree.map(HERE, "").put("name", p.name(), HERE).put("count", Tree.integer(HERE, "", p.count()));
    if (!p.labels().isEmpty()) {
      Tree.Map_ labels = Tree.map(HERE, "");
      p.labels().forEach((k, v) -> labels.put(k, v, HERE));
      m.put("labels", labels.build());
    }
    if (!p.taints().isEmpty()) {
      List<Node> taints = new ArrayList<>();
      for (Taint t : p.taints()) {
        Tree.Map_ tm = Tree.map(HERE, "").put("key", t.key(), HERE);
        if (!t.value().isEmpty()) {
          tm.put("value", t.value(), HERE);
        }
        taints.add(tm.put("effect", t.effect(), HERE).build());
      }
      m.put("taints", Tree.list(HERE, "", taints));
    }
    Tree.Map_ alloc = Tree.map(HERE, "");
    p.allocatable().forEach((r, v) -> {
      alloc.put(r, Quantities.exact(r, v), HERE);
      d.capacity.merge(r, v * p.count(), Long::sum);
    });
    return m.put("allocatable", alloc.build()).build();
  }

  /** Nodes for a trace without a node list: sized for its mean demand at 70% utilization. */
  static void placeholderCluster(ScenarioDraft d) {
    long cpuNodes = 0;
    long cpusPerNode = 1;
    long gpuNodes = 0;
    boolean alibaba = false;
    for (TraceQueues t : d.traceQueues) {
      long unitSeconds = t.demand().values().stream().mapToLong(Long::longValue).sum();
      double mean = unitSeconds / (t.spanMs() / 1000.0) / TARGET_LOAD;
      switch (t.format()) {
        // never smaller than the largest job, which would otherwise wait forever
        case SWF -> {
          cpusPerNode = Math.max(cpusPerNode, t.unitsPerPod()); // a pod of unitsPerPod processors must fit a node
          long procs = t.maxProcs() > 0 ? t.maxProcs() : Math.max(t.maxUnits(), (long) Math.ceil(mean));
          cpuNodes += (procs + cpusPerNode - 1) / cpusPerNode;
        }
        case PHILLY -> gpuNodes += !d.vcNodes.isEmpty() ? d.vcNodes.values().stream().mapToLong(Long::longValue).sum()
            : (long) Math.ceil(Math.max(t.maxUnits(), mean) / d.options.gpusPerNode());
        default -> alibaba = true;
      }
    }
    if (cpuNodes > 0) {
      d.pools.add(pool(d, new NodePools.Pool("cpu", (int) cpuNodes, new TreeMap<>(), List.of(),
          new TreeMap<>(Map.of("cpu", 1000L * cpusPerNode)), 0)));
    }
    if (gpuNodes > 0) {
      d.pools.add(pool(d, new NodePools.Pool("gpu", (int) gpuNodes, new TreeMap<>(), List.of(),
          new TreeMap<>(Map.of("nvidia.com/gpu", (long) d.options.gpusPerNode())), 0)));
    }
    if (alibaba) {
      d.pools.add(pool(d, new NodePools.Pool("gpu-node", 100, new TreeMap<>(), List.of(), new TreeMap<>(Map.of("cpu",
          96_000L, "memory", 768L << 30, "nvidia.com/gpu", 8L)), 0)));
    }
    if (d.pools.isEmpty()) {
      d.pools.add(pool(d, new NodePools.Pool("node", 10, new TreeMap<>(), List.of(), new TreeMap<>(Map.of("cpu",
          64_000L, "memory", 256L << 30)), 0)));
    }
    List<String> how = new ArrayList<>();
    if (cpuNodes > 0) {
      how.add("SWF: " + cpusPerNode + "-cpu nodes, one cpu per processor (the header's MaxProcs, else enough for the "
          + "trace's mean demand at about " + Math.round(TARGET_LOAD * 100) + "% utilization)");
    }
    if (gpuNodes > 0) {
      how.add(!d.vcNodes.isEmpty() ? "Philly: the nodes of the VC sizes, " + d.options.gpusPerNode() + " GPUs each"
          : "Philly: " + d.options.gpusPerNode() + "-GPU nodes for the trace's mean demand at about "
          + Math.round(TARGET_LOAD * 100) + "% utilization");
    }
    if (alibaba) {
      how.add("Alibaba: 100 nodes of 8 GPUs (give the trace's node CSV to use its real nodes)");
    }
    d.clusterSources.add("No node list was given, so these nodes are generated (edit them): " + String.join("; ", how)
        + (how.isEmpty() ? "10 nodes of 64 cpu" : ""));
  }
}
