package batchsim.scenarios.imports;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's priority as Kueue resolves it when it builds the job's Workload (jobframework.ExtractPriority and
 * pkg/util/priority at the pinned commit), and the scenario's {@code priorityClasses} from the inputs'
 * WorkloadPriorityClass ({@code kueue.x-k8s.io}) and PriorityClass ({@code scheduling.k8s.io/v1}) objects.
 * The order, first match wins:
 * <ol>
 *   <li>the {@code kueue.x-k8s.io/priority-class} label → that WorkloadPriorityClass
 *       (GetPriorityFromWorkloadPriorityClass);
 *   <li>no label but a WorkloadPriorityClass named {@code default} → that one (the job webhooks'
 *       ApplyDefaultWorkloadPriorityClass; gate WorkloadPriorityClassDefaulting, beta and on in 0.20);
 *   <li>Kubeflow jobs and MPIJob: {@code spec.runPolicy.schedulingPolicy.priorityClass} (their
 *       PriorityClass(), the custom priority-class function);
 *   <li>the first non-empty {@code spec.priorityClassName} over the pod templates in pod-set order
 *       (extractPriorityFromPodSets) → that PriorityClass (GetPriorityFromPriorityClass);
 *   <li>the PriorityClass with {@code globalDefault: true}, the lowest value if several
 *       (getDefaultPriorityClass);
 *   <li>0 (constants.DefaultPriority).
 * </ol>
 * Kubernetes keeps the two kinds apart; a scenario has one list, so a PriorityClass whose name a
 * WorkloadPriorityClass with another value already uses is listed as {@code <name>-pod} (said in its
 * comment). A class the inputs do not have is a located warning and priority 0: Kueue would not build the
 * Workload (the class is not found), and for a PriorityClass Kubernetes' admission would refuse the pods.
 * <p>{@link #unresolved()} is for a scenario's {@code manifest:} alone, without the cluster's classes: the
 * label or else the pod templates' class name becomes {@code priorityClass}, a reference to the scenario's
 * own list.
 */
final class Priorities {
  static final String LABEL = "kueue.x-k8s.io/priority-class";
  static final String DEFAULT_WORKLOAD_CLASS = "default";
  static final String RENAMED_SUFFIX = "-pod";

  /** A scenario {@code priorityClasses} entry and the comment saying where it came from. */
  record Entry(MapNode node, List<String> comment) {}

  /** A class of the inputs: its name in the scenario, its value, where it was read. */
  private record Known(String scenarioName, long value, KubeObject source, List<String> notes) {}

  private final boolean resolve;
  private final Warnings warnings;
  private final Map<String, Known> workloadClasses = new LinkedHashMap<>();
  private final Map<String, Known> podClasses = new LinkedHashMap<>();
  private final List<Entry> entries = new ArrayList<>();
  private Known globalDefault;

  private Priorities(boolean resolve, Warnings warnings) {
    this.resolve = resolve;
    this.warnings = warnings;
  }

  /** Whether {@code o} is a core PriorityClass (WorkloadPriorityClass is among Kueue's objects). */
  static boolean handles(KubeObject o) {
    return o.kind().equals("PriorityClass") && o.group().equals("scheduling.k8s.io");
  }

  /** The classes among {@code objects}, to resolve jobs against. */
  static Priorities of(List<KubeObject> objects, IssueSink problems, Warnings warnings) {
    Priorities p = new Priorities(true, warnings);
    Map<KubeObject, Long> values = new LinkedHashMap<>();
    for (KubeObject o : objects) {
      if (handles(o) || o.kind().equals("WorkloadPriorityClass") && o.group().equals(KueueManifestReader.GROUP)) {
        Long v = value(o, problems);
        if (v != null) {
          values.put(o, v);
        }
      }
    }
    values.forEach((o, v) -> {
      if (!handles(o)) {
        p.workloadClasses.put(o.name(), new Known(o.name(), v, o, new ArrayList<>()));
      }
    });
    values.forEach((o, v) -> {
      if (handles(o)) {
        p.podClass(o, v);
      }
    });
    for (KubeObject o : values.keySet()) {
      Entry e = p.entry(o);
      if (e != null) {
        p.entries.add(e);
      }
    }
    return p;
  }

  /** For a manifest read by itself: class names pass through as references. */
  static Priorities unresolved() {
    return new Priorities(false, new Warnings());
  }

  /** The scenario's {@code priorityClasses}, in input order. */
  List<Entry> entries() {
    return entries;
  }

  private void podClass(KubeObject o, long v) {
    String name = o.name();
    Known same = workloadClasses.get(name);
    List<String> notes = new ArrayList<>();
    if (same != null && same.value() == v) {
      same.notes().add("also PriorityClass " + name + " (scheduling.k8s.io/v1) from " + o.location()
          + ", same value");
      podClasses.put(name, same);
    } else {
      if (same != null) {
        String renamed = name + RENAMED_SUFFIX;
        for (int i = 2; workloadClasses.containsKey(renamed); i++) {
          renamed = name + RENAMED_SUFFIX + "-" + i;
        }
        notes.add("PriorityClass " + name + " (scheduling.k8s.io/v1, value " + v + ") listed as " + renamed
            + ": WorkloadPriorityClass " + name + " has value " + same.value() + " and a scenario has one list");
        name = renamed;
      }
      podClasses.put(o.name(), new Known(name, v, o, notes));
    }
    if (Boolean.parseBoolean(Tree.text(o.node(), "globalDefault")) && (globalDefault == null
        || globalDefault.value() > v)) {
      globalDefault = podClasses.get(o.name()); // Kueue: the lowest value if several are default
    }
  }

  private Entry entry(KubeObject o) {
    Known k = handles(o) ? podClasses.get(o.name()) : workloadClasses.get(o.name());
    if (handles(o) && k.source() != o) {
      return null; // shares the WorkloadPriorityClass entry
    }
    Node nameNode = Tree.get(o.node(), "metadata", "name");
    Location at = nameNode == null ? o.location() : nameNode.location();
    Node value = Tree.get(o.node(), "value");
    MapNode node = Tree.map(o.location(), o.node().path())
        .put("name", k.scenarioName().equals(o.name()) && nameNode != null ? nameNode
            : Tree.string(at, "metadata.name", k.scenarioName()))
        .put("value", value).build();
    List<String> comment = new ArrayList<>();
    comment.add("from " + o.location() + " (" + o.kind() + (k == globalDefault ? ", globalDefault" : "") + ")");
    comment.addAll(k.notes());
    return new Entry(node, comment);
  }

  private static Long value(KubeObject o, IssueSink problems) {
    Node v = Tree.get(o.node(), "value");
    if (v == null) {
      problems.report(o.location(), o.node().path(), o.describe() + " has no value");
      return null;
    }
    try {
      long n = Long.parseLong(Tree.text(v) == null ? "" : Tree.text(v).trim());
      if (n == (int) n) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    problems.report(v.location(), v.path(), o.describe() + ": value must be a 32-bit whole number, got "
        + v.describe());
    return null;
  }

  /**
   * Puts the job's {@code priorityClass} (or {@code priority}) into {@code template}. {@code podTemplates}
   * are the job's pod templates in Kueue's pod-set order (Kubeflow: its replica types' order; MPIJob:
   * Launcher, Worker).
   */
  void apply(KubeObject o, List<Node> podTemplates, Tree.Map_ template) {
    Node label = Tree.get(o.node(), "metadata", "labels", LABEL);
    if (label instanceof ScalarNode l && !l.text().isEmpty()) {
      if (!resolve) {
        template.put("priorityClass", l);
      } else if (workloadClasses.containsKey(l.text())) {
        template.put("priorityClass", named(l, workloadClasses.get(l.text())));
      } else {
        missing(o, l, "WorkloadPriorityClass", template);
      }
      return;
    }
    if (resolve && workloadClasses.containsKey(DEFAULT_WORKLOAD_CLASS)) {
      template.put("priorityClass", DEFAULT_WORKLOAD_CLASS, o.location());
      return;
    }
    Node name = className(o, podTemplates);
    if (name != null) {
      if (!resolve) {
        template.put("priorityClass", name);
      } else if (podClasses.containsKey(Tree.text(name))) {
        template.put("priorityClass", named(name, podClasses.get(Tree.text(name))));
      } else {
        missing(o, name, "PriorityClass", template);
      }
    } else if (resolve && globalDefault != null) {
      template.put("priorityClass", globalDefault.scenarioName(), o.location());
    }
  }

  /** Kubeflow's schedulingPolicy, else the first pod template's priorityClassName; null when none names one. */
  private static Node className(KubeObject o, List<Node> podTemplates) {
    Node policy = Tree.get(o.node(), "spec", "runPolicy", "schedulingPolicy", "priorityClass");
    if (policy instanceof ScalarNode s && !s.text().isEmpty()) {
      return s;
    }
    for (Node t : podTemplates) {
      Node n = Tree.get(t, "spec", "priorityClassName");
      if (n instanceof ScalarNode s && !s.text().isEmpty()) {
        return s;
      }
    }
    return null;
  }

  /** The class's scenario name, located where the job names it. */
  private static Node named(Node at, Known k) {
    return k.scenarioName().equals(Tree.text(at)) ? at : Tree.string(at.location(), at.path(), k.scenarioName());
  }

  private void missing(KubeObject o, Node name, String kind, Tree.Map_ template) {
    String refusal = kind.equals("PriorityClass")
        ? "Kubernetes' admission would refuse its pods and Kueue would not create its Workload"
        : "Kueue would not create its Workload (event WorkloadPriorityClassNotFound)";
    warnings.at("priority:" + kind + ":" + Tree.text(name), name, o.describe() + " names " + kind + " "
        + Tree.text(name) + ", which the inputs do not have: " + refusal + "; using priority 0 (add `kubectl get "
        + kind.toLowerCase(java.util.Locale.ROOT) + "es -o yaml` to the inputs if it exists)");
    template.put("priority", Tree.integer(name.location(), name.path(), 0));
  }
}
