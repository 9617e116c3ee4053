package batchsim.scenarios.imports;

import batchsim.scenarios.RegularFiles;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.Quantity;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.TopologyRequest;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.scenarios.yaml.YamlTreeReader;
import batchsim.workloads.trace.KueueGeneratorSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Kueue's scheduler performance-test generator files ({@code test/performance/scheduler/configs/* /
 * generator.yaml}): cohort sets × queue sets × workload sets. Names follow Kueue's generator: cohort
 * {@code <class>-<i>}, ClusterQueue {@code <queueClass>-<set>-<j>-<cohort>} in a namespace of the same name
 * with a LocalQueue of the same name, and every ClusterQueue one flavor and one resource, cpu. With a
 * {@code topology} (the TAS configs) the flavor is a TAS flavor and a template's {@code tasConstraint}
 * becomes its pod set's topology request: required, preferred, or "balanced" = Kueue's slice-only request
 * (slices of {@code sliceSize} pods at {@code tasLevel}). DRA devices are warned about: not modelled.
 */
public final class GeneratorReader {
  // TAS fields are leaves here: they get a warning of their own below.
  private static final Shape TEMPLATE = Shape.obj("className", Shape.LEAF, "runtimeMs", Shape.LEAF, "priority",
      Shape.LEAF, "request", Shape.LEAF, "podCount", Shape.LEAF, "tasConstraint", Shape.LEAF, "tasLevel", Shape.LEAF,
      "sliceSize", Shape.LEAF, "devices", Shape.LEAF);
  private static final Shape SET = Shape.obj("count", Shape.LEAF, "creationIntervalMs", Shape.LEAF, "workloads",
      Shape.list(TEMPLATE));
  private static final Shape QUEUES = Shape.obj("className", Shape.LEAF, "count", Shape.LEAF, "nominalQuota",
      Shape.LEAF, "borrowingLimit", Shape.LEAF, "reclaimWithinCohort", Shape.LEAF, "withinClusterQueue", Shape.LEAF,
      "workloadsSets", Shape.list(SET));
  private static final Shape CONFIG = Shape.obj("cohorts", Shape.list(Shape.obj("className", Shape.LEAF, "count",
      Shape.LEAF, "queuesSets", Shape.list(QUEUES))), "resourceFlavor", Shape.obj("name", Shape.LEAF, "nodeLabel",
      Shape.LEAF, "topologyName", Shape.LEAF), "topology", Shape.LEAF, "dra", Shape.LEAF);

  private GeneratorReader() {}

  /** One ClusterQueue the generator creates, with its workload sets. */
  public record Queue(String name, String cohort, ScalarNode nominalQuota, ScalarNode borrowingLimit,
      ScalarNode reclaimWithinCohort, ScalarNode withinClusterQueue, List<WorkloadSet> sets, Location at) {
    /** Kueue's generator puts each ClusterQueue in its own namespace, with a LocalQueue of its name. */
    public String localQueue() {
      return name + "/" + name;
    }
  }

  public record WorkloadSet(int index, long count, long intervalMs, List<Template> templates) {}

  /** One workload template; {@code topology} is its TAS request, or null. */
  public record Template(String className, long runtimeMs, int priority, long cpuMilli, int podCount,
      TopologyRequest topology) {}

  /**
   * The generator's TAS topology: level node labels and names (highest first), the count per level
   * (nodes per lowest domain last), node capacity, and the flavor's node label.
   */
  public record Topology(String name, List<String> labels, List<Integer> counts, Map<String, String> capacity,
      String flavorNodeLabel) {
    public long nodes() {
      long n = 1;
      for (int c : counts) {
        n *= c;
      }
      return n;
    }
  }

  /** The whole file; {@code flavor} is the one ResourceFlavor ({@code rf} unless the file names one). */
  public record Config(String flavor, List<Queue> queues, Topology topology) {}

  /** True when {@code root} looks like a generator file (cohorts with queuesSets). */
  public static boolean looksLike(Node root) {
    return !Tree.items(root, "cohorts").isEmpty() && Tree.get(Tree.items(root, "cohorts").get(0), "queuesSets") != null;
  }

  public static Config read(Path file, String displayName, IssueSink problems, Warnings warnings) throws IOException {
    Node root = YamlTreeReader.read(displayName, RegularFiles.readString(file), problems);
    return root == null ? null : read(root, problems, warnings);
  }

  public static Config read(Node root, IssueSink problems, Warnings warnings) {
    CONFIG.keep(root, "generator", "generator file", warnings); // warns about what is not read below
    if (Tree.get(root, "dra") != null) {
      warnings.at("generator:dra", Tree.get(root, "dra"), "dra: dynamic resource allocation is not modelled by "
          + "batchsim; ignored");
    }
    String flavor = Tree.text(root, "resourceFlavor", "name");
    List<Queue> queues = new ArrayList<>();
    List<Node> cohorts = Tree.items(root, "cohorts");
    if (cohorts.isEmpty()) {
      problems.report(root.location(), root.path(), "a generator file needs at least one cohort");
    }
    for (Node cs : cohorts) {
      String cohortClass = text(cs, "className", problems);
      long cohortCount = whole(cs, "count", problems);
      List<Node> queueSets = Tree.items(cs, "queuesSets");
      for (int ci = 0; ci < cohortCount; ci++) {
        String cohort = cohortClass + "-" + ci;
        for (int qs = 0; qs < queueSets.size(); qs++) {
          Node q = queueSets.get(qs);
          String queueClass = text(q, "className", problems);
          long queueCount = whole(q, "count", problems);
          List<WorkloadSet> sets = sets(q, problems, warnings, ci == 0);
          for (int j = 0; j < queueCount; j++) {
            queues.add(new Queue(queueClass + "-" + qs + "-" + j + "-" + cohort, cohort, scalar(q, "nominalQuota",
                problems), scalar(q, "borrowingLimit", null), scalar(q, "reclaimWithinCohort", null),
                scalar(q, "withinClusterQueue", null), sets, q.location()));
          }
        }
      }
    }
    Topology topology = null;
    List<Node> levels = Tree.items(root, "topology", "levels");
    if (!levels.isEmpty()) {
      List<String> labels = new ArrayList<>();
      List<Integer> counts = new ArrayList<>();
      for (Node l : levels) {
        labels.add(text(l, "nodeLabel", problems));
        counts.add((int) Math.max(1, Math.min(Integer.MAX_VALUE, whole(l, "count", problems))));
      }
      // Kueue's generator: 96 cpu and 256Gi per node unless the lowest level says otherwise; pods 110
      Map<String, String> cap = new java.util.LinkedHashMap<>(); // in this order: Map.of's order varies per JVM
      cap.put("cpu", "96");
      cap.put("memory", "256Gi");
      Tree.entries(levels.get(levels.size() - 1), "capacity").forEach((k, e) -> cap.put(k, Tree.text(e.value())));
      cap.put("pods", "110");
      String label = Tree.text(root, "resourceFlavor", "nodeLabel");
      String name = Tree.text(root, "resourceFlavor", "topologyName") != null
          ? Tree.text(root, "resourceFlavor", "topologyName") : Tree.text(root, "topology", "name");
      topology = new Topology(name == null ? "default" : name, labels, counts, cap,
          label == null ? "tas-node-group" : label);
    }
    return new Config(flavor == null ? "rf" : flavor, queues, topology);
  }

  private static List<WorkloadSet> sets(Node q, IssueSink problems, Warnings warnings, boolean warn) {
    List<WorkloadSet> sets = new ArrayList<>();
    List<Node> items = Tree.items(q, "workloadsSets");
    for (int s = 0; s < items.size(); s++) {
      Node set = items.get(s);
      List<Template> templates = new ArrayList<>();
      for (Node w : Tree.items(set, "workloads")) {
        if (warn && Tree.get(w, "devices") != null) {
          warnings.at("generator:devices", Tree.get(w, "devices"), "workloads[].devices: dynamic resource allocation "
              + "is not modelled by batchsim; ignored");
        }
        ScalarNode request = scalar(w, "request", problems);
        long cpu = 0;
        if (request != null) {
          try {
            cpu = Quantity.parse("cpu", request.text());
          } catch (IllegalArgumentException e) {
            problems.report(request.location(), request.path(), e.getMessage());
          }
        }
        Node pods = Tree.get(w, "podCount");
        templates.add(new Template(text(w, "className", problems), whole(w, "runtimeMs", problems),
            (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, signed(w, "priority", problems))), cpu,
            pods == null ? 1 : (int) Math.max(1, whole(w, "podCount", problems)), topologyRequest(w, problems)));
      }
      if (templates.isEmpty()) {
        problems.report(set.location(), set.path(), "a workloads set needs at least one workload template");
      }
      sets.add(new WorkloadSet(s, whole(set, "count", problems), whole(set, "creationIntervalMs", problems),
          templates));
    }
    return sets;
  }

  /** Kueue's generator: required, preferred, or balanced (slice-only: slices of sliceSize at tasLevel). */
  private static TopologyRequest topologyRequest(Node w, IssueSink problems) {
    String level = Tree.text(w, "tasLevel");
    if (level == null) {
      return null;
    }
    String constraint = Tree.text(w, "tasConstraint");
    Node sliceSize = Tree.get(w, "sliceSize");
    switch (constraint == null ? "" : constraint) {
      case "required":
        return TopologyRequest.required(level);
      case "preferred":
        return TopologyRequest.preferred(level);
      case "balanced":
        return TopologyRequest.unconstrained().withSlice(level,
            sliceSize == null ? 1 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, whole(w, "sliceSize", problems))));
      default:
        Node at = Tree.get(w, "tasConstraint") != null ? Tree.get(w, "tasConstraint") : w;
        problems.report(at.location(), at.path(), "tasConstraint must be required, preferred or balanced, got "
            + (constraint == null ? "nothing" : "'" + constraint + "'"));
        return null;
    }
  }

  /** One workload source per workload set of every ClusterQueue, routed through {@code queueMap}. */
  public static List<KueueGeneratorSet> sources(Config c, ResourceSpace space, Map<String, String> queueMap,
      double speedup) {
    int cpu = space.require("cpu");
    List<KueueGeneratorSet> out = new ArrayList<>();
    for (Queue q : c.queues()) {
      for (WorkloadSet s : q.sets()) {
        List<KueueGeneratorSet.Template> templates = new ArrayList<>();
        for (Template t : s.templates()) {
          long[] perPod = new long[space.size()];
          perPod[cpu] = t.cpuMilli();
          templates.add(new KueueGeneratorSet.Template(t.className(), t.runtimeMs(), t.priority(),
              List.of(PodSetSpec.of("main", t.podCount(), Resources.wrap(perPod)).withTopology(t.topology()))));
        }
        out.add(new KueueGeneratorSet(q.name(), queueMap.getOrDefault(q.localQueue(), q.localQueue()), s.index(),
            s.intervalMs(), s.count(), templates, speedup));
      }
    }
    return out;
  }

  private static ScalarNode scalar(Node n, String key, IssueSink problems) {
    Node v = Tree.get(n, key);
    if (v instanceof ScalarNode s) {
      return s;
    }
    if (problems != null) {
      problems.report(n.location(), n.path(), v == null ? "missing required field '" + key + "'"
          : key + ": expected a value, got " + v.describe());
    }
    return null;
  }

  private static String text(Node n, String key, IssueSink problems) {
    ScalarNode s = scalar(n, key, problems);
    return s == null ? "?" : s.text();
  }

  private static long whole(Node n, String key, IssueSink problems) {
    long v = signed(n, key, problems);
    if (v < 0) {
      Node at = Tree.get(n, key);
      problems.report(at.location(), at.path(), key + " must be >= 0, got " + v);
      return 0;
    }
    return v;
  }

  private static long signed(Node n, String key, IssueSink problems) {
    ScalarNode s = scalar(n, key, problems);
    if (s == null) {
      return 0;
    }
    try {
      return Long.parseLong(s.text().trim());
    } catch (NumberFormatException e) {
      problems.report(s.location(), s.path(), key + ": expected a whole number, got " + s.describe());
      return 0;
    }
  }
}
