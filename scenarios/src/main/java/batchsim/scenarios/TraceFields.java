package batchsim.scenarios;

import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.trace.GpuOptions;
import batchsim.workloads.trace.OnError;
import batchsim.workloads.trace.TraceFormat;
import batchsim.workloads.trace.TraceMapping;
import batchsim.workloads.trace.TraceSelection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of a {@code workloads.traces} entry that shape its jobs — queue and priority routes, pod
 * shape, runtime, window and sampling, GPU options — checked against the trace format's columns. Also the
 * GPU options and implied-default scalars {@code cluster.nodesFrom} shares.
 */
final class TraceFields {
  private final Problems problems;
  private final KubeBinder kube;

  TraceFields(KubeBinder kube) {
    this.kube = kube;
    this.problems = kube.problems();
  }

  GpuOptions gpu(Fields f, TraceFormat format, ScalarNode formatNode) {
    if (format != TraceFormat.ALIBABA) {
      for (String k : List.of("gpuResource", "gpuSharing")) {
        if (f.has(k)) {
          problems.at(f.keyNode(k), "'" + k + "' applies to format alibaba only");
        }
      }
      return GpuOptions.DEFAULT;
    }
    return gpuOptions(f, kube, formatNode);
  }

  /** {@code gpuResource} and {@code gpuSharing: whole | milli}, shared with {@code cluster.nodesFrom}. */
  static GpuOptions gpuOptions(Fields f, KubeBinder kube, Node at) {
    ScalarNode resource = f.optionalName("gpuResource");
    String sharing = f.string("gpuSharing", "whole");
    if (!sharing.equals("whole") && !sharing.equals("milli")) {
      kube.problems().at(f.get("gpuSharing"), "'" + sharing + "' is not one of whole, milli");
    }
    ScalarNode name = resource != null ? resource : synthetic(at, GpuOptions.DEFAULT.resource());
    kube.resourceName(name);
    return new GpuOptions(name.text(), sharing.equals("milli"));
  }

  TraceMapping mapping(Fields f, TraceFormat format, ScalarNode formatNode, String name) {
    String queueFrom = attribute(f, "queueFrom", format);
    if (!f.has("queue") && queueFrom == null) {
      problems.at(f.node(), "a trace needs queue (every job to one LocalQueue) or queueFrom (one of "
          + String.join(", ", format.attributes()) + ")");
    }
    if (f.has("queueMap") && queueFrom == null) {
      problems.at(f.keyNode("queueMap"), "queueMap needs queueFrom");
    }
    String priorityFrom = attribute(f, "priorityFrom", format);
    if (f.has("priorityMap") && priorityFrom == null) {
      problems.at(f.keyNode("priorityMap"), "priorityMap needs priorityFrom");
    }
    String classFrom = attribute(f, "classFrom", format);
    List<Spec.Amount> perUnit = f.has("perUnit") ? kube.amounts(f.get("perUnit")) : defaultPerUnit(format, formatNode);
    List<Spec.Amount> perPod = kube.amounts(f.get("perPod"));
    if (!f.atMostOne("unitsPerPod", "podsPerJob")) {
      return null;
    }
    if (format == TraceFormat.ALIBABA && (f.has("perUnit") || f.has("unitsPerPod") || f.has("podsPerJob"))) {
      problems.at(f.keyNode(f.has("perUnit") ? "perUnit" : f.has("unitsPerPod") ? "unitsPerPod" : "podsPerJob"),
          "every Alibaba job is one pod with its own requests; use perPod to add to them");
    }
    int unitsPerPod = f.int32("unitsPerPod", 1, 1);
    int podsPerJob = f.int32("podsPerJob", 0, 1);
    String runtime = f.string("runtime", "actual");
    if (!runtime.equals("actual") && !runtime.equals("requested")) {
      problems.at(f.get("runtime"), "'" + runtime + "' is not one of actual, requested");
    } else if (runtime.equals("requested") && format != TraceFormat.SWF) {
      problems.at(f.get("runtime"), "only SWF traces have a requested runtime");
    }
    double runtimeScale = f.decimal("runtimeScale", 1, 0);
    if (runtimeScale <= 0) {
      problems.at(f.get("runtimeScale"), "must be > 0");
      return null;
    }
    Map<String, String> queueMap = texts(nameMap(f, "queueMap"));
    Map<String, String> priorityMap = texts(nameMap(f, "priorityMap"));
    ScalarNode queue = f.optionalName("queue");
    ScalarNode priorityClass = f.optionalName("priorityClass");
    return new TraceMapping(name, classFrom,
        new TraceMapping.Route(queue == null ? null : queue.text(), queueFrom, queueMap),
        new TraceMapping.Route(priorityClass == null ? null : priorityClass.text(), priorityFrom, priorityMap),
        Map.of(), new TraceMapping.PodShape(amounts(perUnit), amounts(perPod), unitsPerPod, podsPerJob),
        runtime.equals("requested"), runtimeScale);
  }

  /** One processor is one cpu; one Philly GPU is one nvidia.com/gpu; Alibaba pods state their own. */
  private List<Spec.Amount> defaultPerUnit(TraceFormat format, ScalarNode at) {
    String r = format == TraceFormat.SWF ? "cpu" : format == TraceFormat.PHILLY ? "nvidia.com/gpu" : null;
    if (r == null) {
      return List.of();
    }
    ScalarNode n = synthetic(at, r);
    kube.resourceName(n);
    return List.of(new Spec.Amount(n, r.equals("cpu") ? 1000 : 1));
  }

  TraceSelection selection(Fields f) {
    Fields w = f.map("window", "from", "to");
    long from = w.duration("from", 0);
    long to = w.duration("to", Long.MAX_VALUE);
    if (w.has("to") && to <= from) {
      problems.at(w.get("to"), "window.to must be after window.from");
      return null;
    }
    double speedup = f.decimal("speedup", 1, 0);
    if (speedup <= 0) {
      problems.at(f.get("speedup"), "must be > 0");
      return null;
    }
    double sample = f.decimal("sample", 1, 0);
    if (sample <= 0 || sample > 1) {
      problems.at(f.get("sample"), "must be in (0, 1], the probability of keeping a job");
      return null;
    }
    long limit = f.integer("limit", TraceSelection.UNLIMITED, 1);
    TraceSelection.SortMode sort = TraceSelection.SortMode.AUTO;
    Node sortNode = f.get("sort");
    if (sortNode != null) {
      String s = Values.string(sortNode, problems);
      if ("auto".equals(s)) {
        sort = TraceSelection.SortMode.AUTO;
      } else {
        Boolean b = Values.bool(sortNode, problems);
        sort = b == null ? TraceSelection.SortMode.AUTO : b ? TraceSelection.SortMode.ALWAYS
            : TraceSelection.SortMode.NEVER;
      }
    }
    int buffer = f.int32("sortBuffer", TraceSelection.DEFAULT_SORT_BUFFER, 1);
    String onError = f.string("onError", "fail");
    if (!onError.equals("fail") && !onError.equals("skip")) {
      problems.at(f.get("onError"), "'" + onError + "' is not one of fail, skip");
    }
    return new TraceSelection(from, to, speedup, sample, f.bool("dropCancelled", false), f.bool("dropFailed", false),
        limit, sort, buffer, onError.equals("skip") ? OnError.SKIP : OnError.FAIL);
  }

  private String attribute(Fields f, String key, TraceFormat format) {
    ScalarNode s = f.optionalName(key);
    if (s == null) {
      return null;
    }
    if (!format.attributes().contains(s.text())) {
      problems.at(s, "'" + s.text() + "' is not a column of " + format.id() + " traces (one of "
          + String.join(", ", format.attributes()) + ")");
      return null;
    }
    return s.text();
  }

  /** A map of trace value → name (LocalQueue, priority class), keeping the value nodes. */
  Map<String, ScalarNode> nameMap(Fields f, String key) {
    Map<String, ScalarNode> out = new LinkedHashMap<>();
    Node n = f.get(key);
    if (n == null) {
      return out;
    }
    if (!(n instanceof MapNode m)) {
      problems.wrongType(n, "a map of trace value to name");
      return out;
    }
    m.entries().forEach((k, e) -> {
      ScalarNode v = Values.scalar(e.value(), problems, "a name");
      if (v != null && !v.text().isBlank()) {
        out.put(k, v);
      } else if (v != null || e.value().isNull()) {
        problems.at(e.value(), "must not be empty");
      }
    });
    return out;
  }

  static Map<String, String> texts(Map<String, ScalarNode> nodes) {
    Map<String, String> out = new LinkedHashMap<>();
    nodes.forEach((k, v) -> out.put(k, v.text()));
    return out;
  }

  private static Map<String, Long> amounts(List<Spec.Amount> amounts) {
    Map<String, Long> out = new LinkedHashMap<>();
    amounts.forEach(a -> out.merge(a.resource().text(), a.value(), Long::sum));
    return out;
  }

  /** A scalar standing for text the scenario implies (a default), located at {@code at}. */
  static ScalarNode synthetic(Node at, String text) {
    return new ScalarNode(at.location(), at.path(), text, ScalarNode.Type.STRING);
  }
}
