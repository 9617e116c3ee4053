package batchsim.scenarios;

import batchsim.core.model.ResourceSpace;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.scenarios.imports.GeneratorReader;
import batchsim.scenarios.imports.Warnings;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.trace.GpuOptions;
import batchsim.workloads.trace.OnError;
import batchsim.workloads.trace.TraceFormat;
import batchsim.workloads.trace.TraceFormatException;
import batchsim.workloads.trace.TraceMapping;
import batchsim.workloads.trace.TraceScan;
import batchsim.workloads.trace.TraceSelection;
import batchsim.workloads.trace.TraceSource;
import batchsim.workloads.trace.TraceStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binds {@code workloads.traces}: public traces (swf, philly, alibaba) and Kueue performance-test generator
 * files replayed as workloads. The file is read once when the scenario is bound (malformed lines, sort
 * order) and once more by the validator (which LocalQueues, priority classes and resources its jobs use),
 * so that every problem is reported with its file and line before a run starts; a run then reads it
 * lazily (see {@link TraceSource}).
 */
final class TraceBinder {
  /** Malformed lines reported one by one, before a summary line. */
  private static final int MAX_LINE_PROBLEMS = 20;
  private static final String GENERATOR = "kueue-generator";
  private static final List<String> KEYS = List.of("name", "format", "path", "queue", "queueFrom", "queueMap",
      "priorityClass", "priorityFrom", "priorityMap", "classFrom", "perUnit", "perPod", "unitsPerPod", "podsPerJob",
      "runtime", "runtimeScale", "window", "speedup", "sample", "dropCancelled", "dropFailed", "limit", "sort",
      "sortBuffer", "onError", "gpuResource", "gpuSharing");
  private static final Set<String> GENERATOR_KEYS = Set.of("name", "format", "path", "queueMap", "speedup");

  private final Problems problems;
  private final KubeBinder kube;

  TraceBinder(KubeBinder kube) {
    this.kube = kube;
    this.problems = kube.problems();
  }

  /**
   * One bound entry; {@code source} is null for a generator file ({@code generator} then), and either is
   * null after a problem. The nodes are kept for the validator's messages.
   */
  record Trace(Node at, String name, TraceFormat format, Path file, String displayName, GpuOptions gpu,
      TraceSelection selection, TraceMapping mapping, boolean sort, boolean readable, GeneratorReader.Config generator,
      Map<String, String> queueMap, double speedup, ScalarNode queue, Map<String, ScalarNode> queueMapNodes,
      ScalarNode priorityClass, Map<String, ScalarNode> priorityMapNodes) {

    /** Bound without a problem, so the validator can read the file once more. */
    boolean ok() {
      return file != null && (format != null ? mapping != null && selection != null && readable : generator != null);
    }

    TraceSource source(ResourceSpace space, Map<String, Integer> priorityValues) {
      TraceMapping m = new TraceMapping(mapping.name(), mapping.classFrom(), mapping.queue(), mapping.priorityClass(),
          priorityValues, mapping.shape(), mapping.requestedRuntime(), mapping.runtimeScale());
      return new TraceSource(name, file, displayName, format, gpu, selection, m, space, sort);
    }

    List<? extends WorkloadSourceSpec> sources(ResourceSpace space, Map<String, Integer> priorityValues) {
      return format != null ? List.of(source(space, priorityValues))
          : GeneratorReader.sources(generator, space, queueMap, speedup);
    }
  }

  List<Trace> traces(List<Node> items) {
    List<Trace> out = new ArrayList<>();
    for (Node n : items) {
      Trace t = trace(n);
      if (t != null) {
        out.add(t);
      }
    }
    return out;
  }

  private Trace trace(Node n) {
    Fields f = Fields.of(n, problems, KEYS.toArray(String[]::new));
    ScalarNode formatNode = f.requiredName("format");
    Path file = InputFiles.existing(f.required("path"), problems);
    if (formatNode == null) {
      return null;
    }
    String displayName = file == null ? null : file.toString();
    ScalarNode nameNode = f.optionalName("name");
    String name = nameNode != null ? nameNode.text() : file == null ? "trace" : baseName(file);
    if (formatNode.text().equals(GENERATOR)) {
      for (String k : KEYS) {
        if (f.has(k) && !GENERATOR_KEYS.contains(k)) {
          problems.at(f.keyNode(k), "'" + k + "' does not apply to format " + GENERATOR + " (it takes "
              + String.join(", ", GENERATOR_KEYS) + ")");
        }
      }
      Map<String, ScalarNode> queueMap = nameMap(f, "queueMap");
      double speedup = f.decimal("speedup", 1, 0);
      if (speedup <= 0) {
        problems.at(f.get("speedup"), "must be > 0");
        speedup = 1;
      }
      GeneratorReader.Config config = null;
      if (file != null) {
        try {
          config = GeneratorReader.read(file, displayName, problems, new Warnings());
        } catch (IOException e) {
          problems.at(f.get("path"), "cannot read " + file + ": " + e.getMessage());
        }
      }
      kube.resourceName(synthetic(formatNode, "cpu"));
      return new Trace(n, name, null, file, displayName, null, null, null, false, false, config, texts(queueMap),
          speedup, null, queueMap, null, Map.of());
    }
    TraceFormat format = TraceFormat.byId(formatNode.text());
    if (format == null) {
      problems.at(formatNode, "'" + formatNode.text() + "' is not one of swf, philly, alibaba, " + GENERATOR);
      return null;
    }
    GpuOptions gpu = gpu(f, format, formatNode);
    TraceMapping mapping = mapping(f, format, formatNode, name);
    TraceSelection selection = selection(f);
    ScalarNode queue = f.optionalName("queue");
    Map<String, ScalarNode> queueMap = nameMap(f, "queueMap");
    Map<String, ScalarNode> priorityMap = nameMap(f, "priorityMap");
    boolean sort = false;
    boolean readable = false;
    if (file != null && selection != null) {
      int before = problems.sorted().size();
      sort = scanLines(f, format, file, displayName, gpu, selection);
      readable = problems.sorted().size() == before;
    }
    return new Trace(n, name, format, file, displayName, gpu, selection, mapping, sort, readable, null, texts(queueMap), 1,
        queue, queueMap, f.optionalName("priorityClass"), priorityMap);
  }

  /** Reads the file once: malformed lines and sort order. Returns whether to sort it. */
  private boolean scanLines(Fields f, TraceFormat format, Path file, String displayName, GpuOptions gpu,
      TraceSelection selection) {
    TraceScan.Raw raw;
    try {
      raw = TraceScan.raw(file, displayName, format, gpu);
    } catch (TraceFormatException e) {
      report(f.node(), e);
      return false;
    } catch (IOException | UncheckedIOException e) {
      problems.at(f.get("path"), "cannot read " + file + ": " + e.getMessage());
      return false;
    }
    if (selection.onError() == OnError.FAIL) {
      raw.malformed().stream().limit(MAX_LINE_PROBLEMS).forEach(e -> report(f.node(), e));
      if (raw.malformedCount() > MAX_LINE_PROBLEMS) {
        problems.report(new Location(displayName, raw.malformed().get(MAX_LINE_PROBLEMS).line(), 1), f.node().path(),
            "... and " + (raw.malformedCount() - MAX_LINE_PROBLEMS) + " more malformed lines");
      }
      if (raw.malformedCount() > 0) {
        problems.at(f.get("path"), raw.malformedCount() + " malformed line" + (raw.malformedCount() == 1 ? "" : "s")
            + " in " + displayName + "; fix " + (raw.malformedCount() == 1 ? "it" : "them") + ", or skip them with onError: skip");
      }
    }
    if (raw.records() == 0 && raw.malformedCount() == 0) {
      problems.at(f.get("path"), displayName + " holds no jobs");
    }
    switch (selection.sort()) {
      case ALWAYS:
        return true;
      case NEVER:
        if (!raw.sorted()) {
          problems.report(new Location(displayName, raw.firstUnsortedLine(), 1), f.node().path(),
              "submitted before the job on the line above: the trace is not sorted by submission time; remove "
                  + "sort: false (or set sort: true)");
        }
        return false;
      default:
        return !raw.sorted();
    }
  }

  private void report(MapNode entry, TraceFormatException e) {
    problems.report(new Location(e.file(), e.line(), e.column()), entry.path(),
        (e.field().isEmpty() ? "" : e.field() + ": ") + e.detail());
  }

  private GpuOptions gpu(Fields f, TraceFormat format, ScalarNode formatNode) {
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

  private TraceMapping mapping(Fields f, TraceFormat format, ScalarNode formatNode, String name) {
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

  private TraceSelection selection(Fields f) {
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
  private Map<String, ScalarNode> nameMap(Fields f, String key) {
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

  private static Map<String, String> texts(Map<String, ScalarNode> nodes) {
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

  /** "KTH-SP2-1996-2.1-cln.swf" → "KTH-SP2-1996-2.1-cln". */
  static String baseName(Path file) {
    String s = file.getFileName().toString();
    int dot = s.lastIndexOf('.');
    return dot > 0 ? s.substring(0, dot) : s;
  }

  /** {@link #validate(List, List, Map, Map, Map, Problems)} with the scenario's queues and priorities. */
  static void validate(Spec.Scenario s, Problems problems) {
    if (s.traces().isEmpty()) {
      return;
    }
    Map<String, String> lqToCq = new LinkedHashMap<>();
    for (Spec.LocalQueue lq : s.localQueues()) {
      if (lq.fullName() != null && lq.clusterQueue() != null) {
        lqToCq.putIfAbsent(lq.fullName(), lq.clusterQueue().text());
      }
    }
    Map<String, Set<String>> covered = new LinkedHashMap<>();
    for (Spec.ClusterQueue cq : s.clusterQueues()) {
      if (cq.name() != null) {
        Set<String> r = covered.computeIfAbsent(cq.name().text(), k -> new java.util.HashSet<>());
        cq.resourceGroups().forEach(g -> g.coveredResources().forEach(c -> r.add(c.text())));
      }
    }
    Map<String, Integer> priorities = new LinkedHashMap<>();
    for (Spec.PriorityClass pc : s.priorityClasses()) {
      if (pc.name() != null) {
        priorities.putIfAbsent(pc.name().text(), pc.value());
      }
    }
    Set<String> levels = new java.util.HashSet<>();
    s.topologies().forEach(t -> levels.addAll(t.levels()));
    for (Trace t : s.traces()) {
      if (t.ok() && t.format() == null) {
        generatorLevels(t, levels, problems);
      }
    }
    validate(s.traces(), s.resourceNames(), lqToCq, covered, priorities, problems);
  }

  /** A generator template's TAS level must be a level of one of the scenario's topologies. */
  private static void generatorLevels(Trace t, Set<String> levels, Problems problems) {
    Set<String> reported = new java.util.HashSet<>();
    for (GeneratorReader.Queue q : t.generator().queues()) {
      for (GeneratorReader.WorkloadSet ws : q.sets()) {
        for (GeneratorReader.Template tpl : ws.templates()) {
          if (tpl.topology() == null) {
            continue;
          }
          List<String> asked = new ArrayList<>();
          if (tpl.topology().level() != null) {
            asked.add(tpl.topology().level());
          }
          tpl.topology().slices().forEach(l -> asked.add(l.level()));
          for (String level : asked) {
            if (!levels.contains(level) && reported.add(tpl.className() + " " + level)) {
              problems.report(q.at(), t.at().path(), "the generator's workload class " + tpl.className()
                  + " asks for topology level '" + level + "', which no topology of the scenario has"
                  + (levels.isEmpty() ? " (define topologies)" : ""));
            }
          }
        }
      }
    }
  }

  /**
   * The validator's checks, which need the whole scenario: every job goes to a LocalQueue that exists,
   * whose ClusterQueue covers every resource the job requests, with a priority class that exists.
   *
   * @param lqToCq LocalQueue → ClusterQueue name
   * @param covered ClusterQueue → resources it covers
   */
  static void validate(List<Trace> traces, List<String> resourceNames, Map<String, String> lqToCq,
      Map<String, Set<String>> covered, Map<String, Integer> priorityValues, Problems problems) {
    ResourceSpace space = ResourceSpace.of(resourceNames);
    for (Trace t : traces) {
      if (!t.ok()) {
        continue;
      }
      if (t.format() == null) {
        for (GeneratorReader.Queue q : t.generator().queues()) {
          String lq = t.queueMap().getOrDefault(q.localQueue(), q.localQueue());
          ScalarNode mapped = t.queueMapNodes().get(q.localQueue());
          Location at = mapped != null ? mapped.location() : q.at();
          String path = mapped != null ? mapped.path() : t.at().path();
          if (!lqToCq.containsKey(lq)) {
            problems.report(at, path, "the generator's ClusterQueue " + q.name() + " submits to LocalQueue '" + lq
                + "', which is not defined " + ScenarioValidator.known(lqToCq.keySet()) + "; define it, or map "
                + q.localQueue() + " with queueMap");
          } else if (!covered.getOrDefault(lqToCq.get(lq), Set.of()).contains("cpu")) {
            problems.report(at, path, "ClusterQueue '" + lqToCq.get(lq) + "' (via LocalQueue '" + lq
                + "') does not cover cpu, which every generator workload requests");
          }
        }
        continue;
      }
      TraceStats stats;
      try {
        stats = TraceScan.scan(t.source(space, priorityValues), new TraceScan.Raw(0, true, 0, List.of(), 0, Map.of()));
      } catch (TraceFormatException e) {
        problems.report(new Location(e.file(), e.line(), e.column()), t.at().path(), e.detail());
        continue;
      } catch (UncheckedIOException e) {
        problems.at(t.at(), e.getMessage());
        continue;
      }
      if (stats.selected() == 0) {
        problems.at(t.at(), "no job of " + t.displayName() + " is selected (" + stats.droppedUnknown()
            + " of unknown size or runtime, " + (stats.droppedCancelled() + stats.droppedFailed()) + " dropped by status, "
            + stats.outsideWindow() + " before the window); check window, limit and the drop options");
      }
      for (TraceStats.QueueUse use : stats.queues().values()) {
        queue(t, use, lqToCq, covered, problems);
      }
      stats.priorityClasses().forEach((pc, line) -> {
        if (!pc.isEmpty() && !priorityValues.containsKey(pc)) {
          ScalarNode fixed = t.priorityClass();
          ScalarNode mapped = t.priorityMapNodes().values().stream().filter(v -> v.text().equals(pc)).findFirst()
              .orElse(fixed != null && fixed.text().equals(pc) ? fixed : null);
          Location at = mapped != null ? mapped.location() : new Location(t.displayName(), line, 1);
          problems.report(at, mapped != null ? mapped.path() : t.at().path(), "unknown priority class '" + pc + "' "
              + ScenarioValidator.known(priorityValues.keySet()));
        }
      });
    }
  }

  private static void queue(Trace t, TraceStats.QueueUse use, Map<String, String> lqToCq,
      Map<String, Set<String>> covered, Problems problems) {
    String lq = use.queue();
    ScalarNode mapped = use.value() == null ? null : t.queueMapNodes().get(use.value());
    ScalarNode at = mapped != null ? mapped : t.queue() != null && t.queue().text().equals(lq) ? t.queue() : null;
    Location where = at != null ? at.location() : new Location(t.displayName(), use.firstLine(), 1);
    String path = at != null ? at.path() : t.at().path();
    String jobs = use.jobs() + " job" + (use.jobs() == 1 ? "" : "s") + (use.value() == null ? ""
        : " with " + t.mapping().queue().from() + " '" + use.value() + "'") + " (the first at line " + use.firstLine()
        + " of " + t.displayName() + ")";
    if (lq.isEmpty()) {
      problems.report(where, path, jobs + " have no " + t.mapping().queue().from() + "; give the trace a default queue");
      return;
    }
    String cq = lqToCq.get(lq);
    if (cq == null) {
      problems.report(where, path, jobs + " go to LocalQueue '" + lq + "', which is not defined "
          + ScenarioValidator.known(lqToCq.keySet()) + (at == null ? "; define it, map the value with queueMap, or give "
          + "the trace a default queue" : ""));
      return;
    }
    List<String> missing = use.resources().stream().filter(r -> !covered.getOrDefault(cq, Set.of()).contains(r))
        .sorted().toList();
    if (!missing.isEmpty()) {
      problems.report(where, path, jobs + " request " + String.join(", ", missing) + ", which ClusterQueue '" + cq
          + "' (via LocalQueue '" + lq + "') does not cover, so Kueue would never admit them");
    }
  }
}
