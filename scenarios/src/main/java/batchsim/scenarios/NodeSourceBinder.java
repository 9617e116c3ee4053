package batchsim.scenarios;

import batchsim.scenarios.imports.KubeObjects;
import batchsim.scenarios.imports.NodeListReader;
import batchsim.scenarios.imports.Warnings;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.trace.AlibabaNodeReader;
import batchsim.workloads.trace.GpuOptions;
import batchsim.workloads.trace.NodePools;
import batchsim.workloads.trace.NodeRecord;
import batchsim.workloads.trace.OnError;
import batchsim.workloads.trace.TraceFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Binds {@code cluster.nodesFrom}: a node list read from a file ({@code alibaba-nodes}: the Alibaba trace's
 * node CSV; {@code kubectl-nodes}: {@code kubectl get nodes -o yaml}) and grouped into node pools of
 * identical nodes, which join {@code cluster.nodePools}. Pool names are {@code <prefix><type>}, located at
 * the entry, so that a clash with a written pool is reported there.
 */
final class NodeSourceBinder {
  private static final long DEFAULT_PODS_PER_NODE = 110; // kubelet's default maxPods, as for written pools

  private final Problems problems;
  private final KubeBinder kube;

  NodeSourceBinder(KubeBinder kube) {
    this.kube = kube;
    this.problems = kube.problems();
  }

  /** The pools of one entry or a list of entries. */
  List<Spec.NodePool> pools(Node nodesFrom) {
    List<Spec.NodePool> out = new ArrayList<>();
    if (nodesFrom == null) {
      return out;
    }
    List<Node> entries = nodesFrom instanceof ListNode l ? l.items() : List.of(nodesFrom);
    for (Node e : entries) {
      out.addAll(entry(e));
    }
    return out;
  }

  private List<Spec.NodePool> entry(Node n) {
    Fields f = Fields.of(n, problems, "format", "path", "namePrefix", "onError", "gpuResource", "gpuSharing",
        "includeNotReady", "keepLabels", "ignoreLabels");
    ScalarNode format = f.requiredName("format");
    Path file = InputFiles.existing(f.required("path"), problems);
    String prefix = f.string("namePrefix", "");
    if (format == null) {
      return List.of();
    }
    List<NodeRecord> nodes;
    List<NodePools.Pool> pools;
    switch (format.text()) {
      case "alibaba-nodes" -> {
        for (String k : List.of("includeNotReady", "keepLabels", "ignoreLabels")) {
          if (f.has(k)) {
            problems.at(f.keyNode(k), "'" + k + "' applies to format kubectl-nodes only");
          }
        }
        GpuOptions gpu = TraceFields.gpuOptions(f, kube, format);
        String onError = f.string("onError", "fail");
        if (!onError.equals("fail") && !onError.equals("skip")) {
          problems.at(f.get("onError"), "'" + onError + "' is not one of fail, skip");
        }
        nodes = file == null ? List.of() : alibaba(f, file, gpu, onError.equals("skip") ? OnError.SKIP : OnError.FAIL);
        pools = NodePools.group(nodes, r -> NodePools.describe(r, gpu));
      }
      case "kubectl-nodes" -> {
        for (String k : List.of("gpuResource", "gpuSharing", "onError")) {
          if (f.has(k)) {
            problems.at(f.keyNode(k), "'" + k + "' applies to format alibaba-nodes only");
          }
        }
        Set<String> keep = texts(f.stringList("keepLabels"));
        Set<String> ignore = texts(f.stringList("ignoreLabels"));
        nodes = file == null ? List.of() : kubectl(f, file, new NodeListReader.Options(f.bool("includeNotReady", false),
            keep, ignore));
        pools = NodeListReader.pools(nodes);
      }
      default -> {
        problems.at(format, "'" + format.text() + "' is not one of alibaba-nodes, kubectl-nodes");
        return List.of();
      }
    }
    if (file != null && nodes.isEmpty()) {
      problems.at(f.get("path"), file + " lists no usable node");
    }
    List<Spec.NodePool> out = new ArrayList<>();
    for (NodePools.Pool p : pools) {
      List<Spec.Amount> allocatable = new ArrayList<>();
      p.allocatable().forEach((r, v) -> {
        ScalarNode name = TraceFields.synthetic(format, r);
        if (kube.resourceName(name)) {
          allocatable.add(new Spec.Amount(name, v));
        }
      });
      if (!p.allocatable().containsKey("pods")) {
        allocatable.add(new Spec.Amount(TraceFields.synthetic(format, "pods"), DEFAULT_PODS_PER_NODE));
      }
      out.add(new Spec.NodePool(TraceFields.synthetic(f.node(), prefix + p.name()), p.count(), p.labels(), p.taints(),
          List.copyOf(allocatable)));
    }
    return out;
  }

  private List<NodeRecord> alibaba(Fields f, Path file, GpuOptions gpu, OnError onError) {
    List<NodeRecord> nodes = new ArrayList<>();
    try (AlibabaNodeReader r = AlibabaNodeReader.open(file, file.toString(), onError, gpu)) {
      NodeRecord n;
      while ((n = r.next()) != null) {
        nodes.add(n);
      }
    } catch (TraceFormatException e) {
      problems.report(new Location(e.file(), e.line(), e.column()), f.node().path(),
          (e.field().isEmpty() ? "" : e.field() + ": ") + e.detail() + (onError == OnError.FAIL
              ? " (onError: skip leaves malformed lines out)" : ""));
    } catch (UncheckedIOException e) {
      problems.at(f.get("path"), e.getMessage());
    }
    return nodes;
  }

  private List<NodeRecord> kubectl(Fields f, Path file, NodeListReader.Options options) {
    try {
      List<KubeObjects.KubeObject> objects = KubeObjects.read(file, file.toString(), problems);
      return NodeListReader.read(objects, options, problems, new Warnings());
    } catch (IOException e) {
      problems.at(f.get("path"), "cannot read " + file + ": " + e.getMessage());
      return List.of();
    }
  }

  private static Set<String> texts(List<ScalarNode> nodes) {
    Set<String> out = new LinkedHashSet<>();
    nodes.forEach(n -> out.add(n.text()));
    return out;
  }
}
