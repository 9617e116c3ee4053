package batchsim.scenarios.imports;

import batchsim.scenarios.RegularFiles;
import static batchsim.scenarios.imports.ScenarioDraft.HERE;
import static batchsim.scenarios.imports.ScenarioDraft.baseName;
import static batchsim.scenarios.imports.ScenarioDraft.dns;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.scenarios.yaml.YamlTreeReader;
import batchsim.workloads.trace.TraceFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Assembles a scenario file from real inputs ({@code batchsim import}). Kueue objects, nodes and job
 * manifests are translated inline; traces, Alibaba node lists and generator files are referenced by path
 * (relative to the output file), never copied. What the inputs do not give is generated and says so in a
 * comment: one ClusterQueue per trace queue (quota in proportion to the queue's demand), a cluster sized
 * from the trace, placeholder arrivals for job templates. Every section's comment names its source.
 */
public final class ScenarioImport {
  /**
   * @param name the scenario name (null: the first input's file name)
   * @param queueFrom the trace attribute that picks a job's queue (null: vc for Philly, qos for Alibaba,
   *     one queue for SWF)
   * @param unitsPerPod processors or GPUs per pod (null: 1, or gpusPerNode for Philly)
   * @param gpusPerNode GPUs per node for Philly VC sizes and placeholder GPU nodes
   * @param maxQueues at most this many queues per trace; rarer values share one "other" queue
   * @param runtime {@code --runtime}: imported jobs' runtime when nothing else says (null: a placeholder)
   * @param queueRuntimes {@code --queue-runtime NAMESPACE/LOCALQUEUE=DIST} values
   * @param snapshot the time that becomes t = 0 for Kueue Workload objects (null: the latest the inputs record)
   */
  public record Options(String name, String queueFrom, Integer unitsPerPod, int gpusPerNode, int maxQueues,
      String runtime, List<String> queueRuntimes, java.time.Instant snapshot) {
    public static final Options DEFAULT = new Options(null, null, null, 8, 50);

    public Options(String name, String queueFrom, Integer unitsPerPod, int gpusPerNode, int maxQueues) {
      this(name, queueFrom, unitsPerPod, gpusPerNode, maxQueues, null, List.of(), null);
    }
  }

  /**
   * The scenario text, warnings (things not carried over), errors (inputs that could not be read) and notes
   * (summary lines, also in the scenario's header).
   */
  public record Result(String yaml, List<String> warnings, List<String> errors, List<String> notes) {}

  private final ScenarioDraft d;
  private final List<KubeObject> objects = new ArrayList<>();
  /** How many job objects each input file holds (a class names its job when its file holds several). */
  private Map<String, Integer> jobsPerFile;

  private ScenarioImport(Options options, Path outDir) {
    this.d = new ScenarioDraft(options, outDir);
  }

  /** Imports {@code inputs} into a scenario meant to be written to {@code outFile} (null: standard output). */
  public static Result run(List<Path> inputs, Path outFile, Options options) {
    Path dir = (outFile == null ? Path.of("") : outFile.toAbsolutePath().getParent()).toAbsolutePath().normalize();
    ScenarioImport i;
    try {
      i = new ScenarioImport(options, dir);
    } catch (IllegalArgumentException e) { // a runtime option
      return new Result("", List.of(), List.of(e.getMessage()), List.of());
    }
    return i.importAll(inputs);
  }

  private Result importAll(List<Path> inputs) {
    String name = d.options.name() != null ? d.options.name()
        : inputs.isEmpty() ? "imported" : dns(baseName(inputs.get(0)));
    d.header.add(name + ": imported by `batchsim import` from:");
    List<Path> traceFiles = new ArrayList<>();
    List<InputKind> traceKinds = new ArrayList<>();
    for (Path p : inputs) {
      InputKind kind;
      try {
        kind = InputKind.of(p);
      } catch (IOException | IllegalArgumentException e) {
        d.errors.add(e instanceof IOException && !(e instanceof TraceFiles.InvalidGzip) ? p + ": cannot read: "
            + e.getMessage() : e.getMessage());
        continue;
      }
      try {
        switch (kind) {
          case MANIFESTS -> manifests(p);
          case PHILLY_VCS -> philyVcs(p);
          case ALIBABA_NODES -> ClusterImport.alibabaNodes(d, p);
          default -> {
            traceFiles.add(p);
            traceKinds.add(kind);
          }
        }
      } catch (TraceFiles.InvalidGzip e) {
        d.errors.add(e.getMessage());
      } catch (IOException e) {
        d.errors.add(p + ": cannot read: " + e.getMessage());
      }
    }
    translateObjects();
    traceFiles.forEach(t -> VolcanoImport.noTraces(d, t));
    for (int t = 0; t < traceFiles.size(); t++) {
      TraceImport.trace(d, traceFiles.get(t), traceKinds.get(t));
    }
    if (d.classes.isEmpty() && d.traces.isEmpty() && d.clusterQueues.isEmpty() && d.pools.isEmpty()
        && d.nodesFrom.isEmpty() && d.errors.isEmpty()) {
      d.warnings.add("empty", new batchsim.scenarios.yaml.Location(inputs.isEmpty() ? "import" : inputs.get(0).toString(),
          1, 1), "the inputs hold no job, queue, node or trace batchsim reads: the scenario is placeholders only");
    }
    if (d.pools.isEmpty() && d.nodesFrom.isEmpty()) {
      if (d.traceQueues.isEmpty()) {
        PlaceholderNodes.add(d);
      } else {
        ClusterImport.placeholderCluster(d);
      }
    }
    AdmissionCheckImport.add(d, objects);
    if (d.clusterQueues.isEmpty()) {
      GeneratedQueues.generateQueues(d, name);
    }
    TraceImport.routeTraces(d);
    d.notes.addAll(d.runtimes.summary());
    String yaml = d.write(name);
    return new Result(yaml, d.warnings.lines(), List.copyOf(d.errors), List.copyOf(d.notes));
  }

  // ---- inputs -------------------------------------------------------------------------------------------

  private void manifests(Path p) throws IOException {
    String text = RegularFiles.readString(p);
    Node first = YamlTreeReader.read(p.toString(), text, (a, b, c) -> { });
    if (first instanceof MapNode m && m.get("apiVersion") == null && GeneratorReader.looksLike(m)) {
      GeneratorImport.generator(d, p, GeneratorReader.read(m, d.sink, d.warnings));
      return;
    }
    List<KubeObject> read = KubeObjects.parse(p.toString(), text, d.sink);
    objects.addAll(read);
    Map<String, Integer> kinds = new LinkedHashMap<>();
    read.forEach(o -> kinds.merge(o.kind(), 1, Integer::sum));
    List<String> counts = new ArrayList<>();
    kinds.forEach((k, n) -> counts.add(n + " " + k + (n == 1 ? "" : k.endsWith("s") ? "es" : "s")));
    d.header.add("  " + d.rel(p) + ": " + (counts.isEmpty() ? "no objects" : String.join(", ", counts)));
  }

  private void translateObjects() {
    List<KubeObject> objects = VolcanoImport.others(d, this.objects); // Volcano's are read after the nodes
    IgnoredObjects ignored = new IgnoredObjects();
    for (KubeObject o : objects) {
      if (!KueueManifestReader.handles(o) && !NodeListReader.handles(o) && !JobTemplateReader.handles(o)
          && !Priorities.handles(o) && !WorkloadObjects.handles(o)) {
        ignored.add(o, d.warnings);
      }
    }
    if (ignored.summary() != null) {
      d.notes.add(ignored.summary());
    }
    Priorities priorities = Priorities.of(objects, d.sink, d.warnings);
    KueueManifestReader.Result kueue = KueueManifestReader.read(objects, d.warnings);
    d.commented(d.topologies, kueue.topologies());
    d.commented(d.flavors, kueue.flavors());
    d.commented(d.cohorts, kueue.cohorts());
    d.commented(d.clusterQueues, kueue.clusterQueues());
    d.commented(d.localQueues, kueue.localQueues());
    priorities.entries().forEach(e -> {
      d.priorityClasses.add(e.node());
      d.comments.put(e.node(), e.comment());
    });
    if (!kueue.isEmpty() || !priorities.entries().isEmpty()) {
      Set<String> files = new LinkedHashSet<>();
      objects.stream().filter(o -> KueueManifestReader.handles(o) || Priorities.handles(o))
          .forEach(o -> files.add(d.rel(Path.of(o.location().file()))));
      d.queueSources.add("Kueue objects from " + String.join(", ", files));
    }
    ClusterImport.kubectlNodes(d, objects);
    VolcanoImport.translate(d, this.objects, this::jobClass);
    WorkloadObjects.Result live = WorkloadObjects.read(objects, d.options.snapshot(), d.sink, d.warnings,
        d.nodeNames::get, d.runtimes);
    liveState(live);
    for (JobTemplateReader.JobTemplate t : JobTemplateReader.read(objects, priorities, d.sink, d.warnings)) {
      // a job behind a Workload is live state, not a template
      if (!live.jobUids().contains(Tree.text(t.source().node(), "metadata", "uid"))) {
        jobClass(t);
      }
    }
  }

  /** Kueue's Workload objects: the listed workloads of t = 0, and a header line on what they held. */
  private void liveState(WorkloadObjects.Result live) {
    if (live.counts().isEmpty()) {
      return;
    }
    d.snapshotTime = live.snapshot();
    d.listed.addAll(live.listed());
    live.listed().forEach(w -> PlaceholderNodes.noteRequests(d, w));
    live.listed().forEach(e -> d.comments.put(e, List.of("from " + e.location())));
    List<String> parts = new ArrayList<>();
    live.counts().forEach((what, n) -> parts.add(n + " " + what));
    d.header.add("Live state at " + live.snapshot() + " (t = 0): " + String.join(", ", parts) + ".");
  }
  private void philyVcs(Path p) throws IOException {
    List<String> lines;
    try (BufferedReader r = TraceFiles.open(p, p.toString())) {
      lines = r.lines().toList(); // a few dozen VCs
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    for (int i = 1; i < lines.size(); i++) {
      String[] f = lines.get(i).split(",");
      if (lines.get(i).isBlank()) {
        continue;
      }
      try {
        d.vcNodes.put(f[0].trim(), Long.parseLong(f[1].trim()));
      } catch (RuntimeException e) {
        d.errors.add(p + ":" + (i + 1) + ":1: expected 'vc,node num', got '" + lines.get(i) + "'");
      }
    }
    d.header.add("  " + d.rel(p) + ": node counts of " + d.vcNodes.size() + " Philly VCs (" + d.options.gpusPerNode()
        + " GPUs per node)");
  }

  // ---- job templates ------------------------------------------------------------------------------------

  private void jobClass(JobTemplateReader.JobTemplate t) {
    PlaceholderNodes.noteRequests(d, t.template());
    Path file = Path.of(t.source().location().file());
    Tree.Map_ c = Tree.map(HERE, "").put("name", dns(t.name()), HERE);
    if (jobsPerFile == null) { // counted once: a cluster's dump may hold thousands of jobs
      jobsPerFile = new HashMap<>();
      objects.stream().filter(o -> JobTemplateReader.handles(o) || VolcanoJobReader.handles(o))
          .forEach(o -> jobsPerFile.merge(o.location().file(), 1, Integer::sum));
    }
    int sameFile = jobsPerFile.getOrDefault(t.source().location().file(), 0);
    if (t.kind().equals("TrainJob")) {
      // its pod sets come from a runtime that may be in another input: written out, not re-read from the file
      t.template().entries().forEach((k, e) -> c.put(k, e.value()));
    } else if (sameFile > 1) {
      c.put("manifest", Tree.map(HERE, "").put("path", d.rel(file), HERE).put("name", t.name(), HERE).build());
    } else {
      c.put("manifest", d.rel(file), HERE);
    }
    ScalarNode queue = (ScalarNode) t.template().get("queue");
    if (queue != null) {
      c.put("queue", queue.text(), HERE);
    }
    c.put("priorityClass", t.template().get("priorityClass")).put("priority", t.template().get("priority"));
    String runtimeNote;
    if (t.standing() == null) {
      RuntimeEstimates.Estimate runtime = d.runtimes.forJob(t.source(), queue == null ? null : queue.text());
      c.put("arrival", Tree.map(HERE, "").put("poisson", Tree.map(HERE, "").put("rate", "10/h", HERE).build()).build())
          .put("count", Tree.integer(HERE, "", 200))
          .put("runtime", runtime.runtime());
      runtimeNote = "); arrival and count are placeholders: edit; runtime: " + runtime.source().describe();
    } else {
      standing(c, t.standing());
      runtimeNote = "); all present at t=0, as the object is now; runtime is a placeholder: edit";
    }
    MapNode built = c.build();
    d.comments.put(built, List.of("from " + t.source().location() + " (" + t.kind() + " " + t.name() + ": "
        + (t.standing() == null || t.standing() == 1 ? "" : t.standing() + " Workloads of ") + podSummary(t.template())
        + runtimeNote));
    d.classes.add(built);
  }

  /** A standing object (Deployment, StatefulSet, LeaderWorkerSet): its {@code n} Workloads all arrive at t=0. */
  private static void standing(Tree.Map_ c, int n) {
    List<Node> zeros = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      zeros.add(Tree.string(HERE, "", "0s"));
    }
    c.put("arrival", Tree.map(HERE, "").put("at", Tree.list(HERE, "", zeros)).build())
        .put("count", Tree.integer(HERE, "", n))
        .put("runtime", "30d", HERE);
  }

  private static String podSummary(MapNode template) {
    List<String> parts = new ArrayList<>();
    for (Node ps : Tree.items(template, "podSets")) {
      List<String> req = new ArrayList<>();
      Tree.entries(ps, "requests").forEach((k, e) -> req.add(k + " " + Tree.text(e.value())));
      parts.add(Tree.text(ps, "count") + " x {" + String.join(", ", req) + "}");
    }
    return String.join(" + ", parts);
  }
}
