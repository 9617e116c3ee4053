package batchsim.scenarios.imports;

import batchsim.scenarios.imports.TraceImport.TraceQueues;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.workloads.trace.TraceFiles;
import batchsim.workloads.trace.TraceFormatException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scenario being assembled: the sections the inputs add to, the comments saying where each part came
 * from, the warnings and errors, and the written scenario text.
 */
final class ScenarioDraft {
  static final Location HERE = new Location("<import>", 1, 1);
  static final List<String> TRACE_RESOURCES = List.of("cpu", "memory", "pods", "nvidia.com/gpu");

  final ScenarioImport.Options options;
  private final Path outDir;
  final Warnings warnings = new Warnings();
  final List<String> errors = new ArrayList<>();
  final IssueSink sink = (at, path, message) -> errors.add(at + ": " + (path.isEmpty() ? "" : path + ": ")
      + message);
  final List<String> header = new ArrayList<>();
  /** Summary lines (runtimes, ignored objects) for the header and standard error. */
  final List<String> notes = new ArrayList<>();
  final IdentityHashMap<Node, List<String>> comments = new IdentityHashMap<>();

  final List<Node> pools = new ArrayList<>();
  final List<Node> nodesFrom = new ArrayList<>();
  /** Imported Node objects' names → their scenario names ({@code <pool>-<i>}), in input order. */
  final Map<String, String> nodeNames = new LinkedHashMap<>();
  final List<Node> events = new ArrayList<>();
  final List<String> clusterSources = new ArrayList<>();
  final Map<String, Long> capacity = new LinkedHashMap<>();
  /** The largest request per resource of any imported pod (placeholder nodes must fit it). */
  final Map<String, Long> largestPod = new LinkedHashMap<>();
  final List<Node> topologies = new ArrayList<>();
  final List<Node> flavors = new ArrayList<>();
  final List<Node> cohorts = new ArrayList<>();
  final List<Node> clusterQueues = new ArrayList<>();
  final List<Node> admissionChecks = new ArrayList<>();
  final List<Node> autoscaling = new ArrayList<>();
  final List<Node> localQueues = new ArrayList<>();
  final List<Node> priorityClasses = new ArrayList<>();
  final List<String> queueSources = new ArrayList<>();
  final List<Node> classes = new ArrayList<>();
  /** The wall-clock time of t = 0 when Kueue Workload objects were imported, else null. */
  java.time.Instant snapshotTime;
  /** Listed workloads: the live state of Kueue Workload objects. */
  final List<Node> listed = new ArrayList<>();
  final List<Node> traces = new ArrayList<>();
  final List<TraceQueues> traceQueues = new ArrayList<>();
  final Map<String, Long> vcNodes = new LinkedHashMap<>();
  /** {@code scheduler:} (null: not written, Kueue) and the {@code volcano:} section with its comment. */
  String scheduler;
  MapNode volcano;
  final List<String> volcanoSources = new ArrayList<>();

  final RuntimeEstimates runtimes;

  /** @throws IllegalArgumentException when a runtime option is not valid */
  ScenarioDraft(ScenarioImport.Options options, Path outDir) {
    this.options = options;
    this.outDir = outDir;
    this.runtimes = new RuntimeEstimates(options.runtime(), options.queueRuntimes(), sink);
  }

  void commented(List<Node> into, List<MapNode> entries) {
    for (MapNode e : entries) {
      into.add(e);
      comments.put(e, List.of("from " + e.location()));
    }
  }

  // ---- output -------------------------------------------------------------------------------------------

  String write(String name) {
    header.addAll(notes);
    header.add("");
    header.add("Each section says where it came from. Traces and node lists stay where they are: paths are relative");
    header.add("to this file. Check it with `batchsim validate`, run it with `batchsim run`.");
    List<ScenarioWriter.Section> sections = new ArrayList<>();
    sections.add(new ScenarioWriter.Section("name", Tree.string(HERE, "", name), List.of()));
    sections.add(new ScenarioWriter.Section("seed", Tree.integer(HERE, "", 1), List.of()));
    if (scheduler != null) {
      sections.add(new ScenarioWriter.Section("scheduler", Tree.string(HERE, "", scheduler), List.of()));
    }
    if (snapshotTime != null) {
      sections.add(new ScenarioWriter.Section("snapshotTime", Tree.string(HERE, "", snapshotTime.toString()),
          List.of("t = 0 is this time: the Kueue Workloads' live state (`--snapshot-time`, else the latest time the "
              + "inputs record)")));
    }
    Tree.Map_ cluster = Tree.map(HERE, "");
    if (!pools.isEmpty()) {
      cluster.put("nodePools", Tree.list(HERE, "", pools));
    }
    if (!nodesFrom.isEmpty()) {
      cluster.put("nodesFrom", Tree.list(HERE, "", nodesFrom));
    }
    sections.add(new ScenarioWriter.Section("cluster", cluster.build(), clusterSources));
    sections.add(section("autoscaling", autoscaling, List.of()));
    sections.add(section("admissionChecks", admissionChecks, List.of()));
    if (!topologies.isEmpty()) {
      sections.add(new ScenarioWriter.Section("topologies", Tree.list(HERE, "", topologies), queueSources));
    }
    sections.add(section("resourceFlavors", flavors, topologies.isEmpty() ? queueSources : List.of()));
    sections.add(section("cohorts", cohorts, List.of()));
    sections.add(section("clusterQueues", clusterQueues, List.of()));
    sections.add(section("localQueues", localQueues, List.of()));
    sections.add(section("priorityClasses", priorityClasses, List.of()));
    sections.add(new ScenarioWriter.Section("volcano", volcano, volcanoSources));
    Tree.Map_ w = Tree.map(HERE, "");
    if (!classes.isEmpty()) {
      w.put("classes", Tree.list(HERE, "", classes));
    }
    if (!listed.isEmpty()) {
      w.put("list", Tree.list(HERE, "", listed));
    }
    if (!traces.isEmpty()) {
      w.put("traces", Tree.list(HERE, "", traces));
    }
    List<String> wc = new ArrayList<>();
    if (!traces.isEmpty()) {
      wc.add("Trace options (see README, Real inputs): queueFrom/queueMap/queue, priorityClass/priorityFrom/priorityMap,");
      wc.add("perUnit, perPod, unitsPerPod | podsPerJob, window: {from, to}, speedup, sample, limit,");
      wc.add("dropCancelled, dropFailed, runtime: actual | requested (swf), sort, onError: fail | skip.");
    }
    if (!w.isEmpty()) {
      sections.add(new ScenarioWriter.Section("workloads", w.build(), wc));
    }
    sections.add(section("events", events, List.of()));
    return ScenarioWriter.write(header, sections, comments);
  }

  private static ScenarioWriter.Section section(String key, List<Node> items, List<String> comment) {
    return new ScenarioWriter.Section(key, items.isEmpty() ? null : Tree.list(HERE, "", items), comment);
  }

  static Node group(List<String> covered, String flavor, List<Node> quotas) {
    List<Node> cov = new ArrayList<>();
    covered.forEach(r -> cov.add(Tree.string(HERE, "", r)));
    return Tree.map(HERE, "").put("coveredResources", Tree.list(HERE, "", cov))
        .put("flavors", list(Tree.map(HERE, "").put("name", flavor, HERE).put("resources", Tree.list(HERE, "", quotas))
            .build())).build();
  }

  static Node list(Node item) {
    return Tree.list(HERE, "", List.of(item));
  }

  /** {@code p} relative to the output file's directory. */
  String rel(Path p) {
    Path abs = p.toAbsolutePath().normalize();
    try {
      return outDir.relativize(abs).toString();
    } catch (IllegalArgumentException e) {
      return abs.toString();
    }
  }

  static Location location(TraceFormatException e) {
    return new Location(e.file(), e.line(), e.column());
  }

  static String baseName(Path p) {
    return TraceFiles.baseName(p);
  }

  /** Lower-case letters, digits and dashes. */
  static String dns(String s) {
    String t = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("-+", "-")
        .replaceAll("^-|-$", "");
    return t.isEmpty() ? "x" : t;
  }
}
