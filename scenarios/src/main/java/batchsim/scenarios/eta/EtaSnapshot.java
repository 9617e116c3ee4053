package batchsim.scenarios.eta;

import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.Problem;
import batchsim.scenarios.RegularFiles;
import batchsim.scenarios.ScenarioException;
import batchsim.scenarios.ScenarioLoader;
import batchsim.scenarios.imports.JobRuntimes;
import batchsim.scenarios.imports.JobTemplateReader;
import batchsim.scenarios.imports.KubeObjects;
import batchsim.scenarios.imports.ScenarioImport;
import batchsim.scenarios.imports.Warnings;
import batchsim.scenarios.overrides.Composition;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The scenario {@code batchsim eta} plays forward: the snapshot (a scenario, or kubectl output imported in
 * memory as {@code batchsim import} would) with the asked-about jobs added as workloads created at t = 0, in
 * argument order, and — unless the scenario's arrivals are kept — its generated classes and traces dropped.
 */
public final class EtaSnapshot {
  /** Keys of a scenario's top level that kubectl output never has at its top. */
  private static final List<String> SCENARIO_KEYS = List.of("cluster", "workloads", "clusterQueues", "resourceFlavors",
      "localQueues", "kueue", "include");

  /**
   * One workload asked about.
   *
   * @param id its workload id in the run ({@code namespace/name})
   * @param what {@code Job ml/train (job.yaml:3:3)} or {@code pending Workload ml/x in the snapshot}
   * @param runtimeSource where its own runtime came from (a job), or null (a Workload of the snapshot)
   */
  public record Asked(String id, String what, String runtimeSource) {}

  /**
   * @param scenario the scenario to run
   * @param source what the snapshot was: {@code scenario FILE} or {@code kubectl output in DIR, imported}
   * @param asked the workloads asked about, jobs first (argument order), then {@code --workload}s
   * @param notes lines on what the answer rests on (runtime estimates, dropped arrivals, import warnings)
   * @param arrivals whether the scenario's classes and traces were kept ({@code --arrivals scenario})
   */
  public record Loaded(LoadedScenario scenario, String source, List<Asked> asked, List<String> notes,
      boolean arrivals) {}

  private final List<Problem> problems = new ArrayList<>();
  private final IssueSink sink = (at, path, message) -> problems.add(new Problem(at, path, message));
  private final List<String> notes = new ArrayList<>();
  /** The snapshot is kubectl output imported in memory: locations in its scenario text mean nothing to users. */
  private boolean imported;
  /** A kubectl snapshot's objects (its priority classes, its finished Workloads), or null for a scenario. */
  private List<KubeObjects.KubeObject> snapshotObjects;

  private EtaSnapshot() {}

  /**
   * Loads {@code snapshot} with {@code jobs} and {@code workloads} ({@code NS/NAME}) asked about.
   *
   * @param keepArrivals keep the scenario's classes and traces (only a scenario SNAPSHOT has real ones)
   * @param runtime {@code --runtime DIST} for jobs without a {@code batchsim.io/runtime} annotation (null: the
   *     import's placeholder)
   * @throws ScenarioException every problem found, located (file:line:col, or the argument)
   * @throws IOException when a file cannot be read
   */
  public static Loaded load(Path snapshot, List<Path> jobs, List<String> workloads, boolean keepArrivals,
      String runtime) throws ScenarioException, IOException {
    return new EtaSnapshot().build(snapshot, jobs, workloads, keepArrivals, runtime);
  }

  private Loaded build(Path snapshot, List<Path> jobs, List<String> workloads, boolean keepArrivals, String runtime)
      throws ScenarioException, IOException {
    JobRuntimes runtimes;
    try {
      runtimes = new JobRuntimes(runtime, sink);
    } catch (IllegalArgumentException e) {
      throw fail(Location.argument("--runtime"), e.getMessage());
    }
    String source;
    Composition c;
    List<Path> kubectl = kubectlFiles(snapshot);
    if (kubectl == null) {
      c = ScenarioLoader.compose(snapshot, List.of());
      source = "scenario " + snapshot;
      header(snapshot);
    } else {
      if (keepArrivals) {
        throw fail(Location.argument("--arrivals"), "'scenario' keeps a scenario's classes and traces; " + snapshot
            + " is kubectl output, whose job templates have placeholder arrivals only");
      }
      imported = true;
      c = imported(snapshot, kubectl);
      snapshotObjects = new ArrayList<>();
      for (Path f : kubectl) {
        snapshotObjects.addAll(KubeObjects.read(f, f.toString(), sink));
      }
      runtimes.learnFrom(snapshotObjects, sink); // the asked jobs' queues' history, as the import's jobs
      source = "kubectl output " + snapshot + ", imported";
    }
    MapNode root = c.root() instanceof MapNode m ? m : null;
    if (root == null) {
      throw fail(new Location(c.file(), 1, 1), "neither a scenario nor kubectl output");
    }
    MapNode wl = root.get("workloads") instanceof MapNode m ? m : new MapNode(root.location(), "workloads", Map.of());
    List<Node> listed = new ArrayList<>(wl.get("list") instanceof ListNode l ? l.items() : List.of());
    List<Asked> asked = new ArrayList<>();
    for (Path job : jobs) {
      for (JobTemplateReader.JobTemplate t : templates(job)) {
        asked.add(addJob(t, runtimes, listed));
      }
    }
    for (String w : workloads) {
      asked.add(pendingWorkload(w, listed));
    }
    throwIfAny();
    runtimes.summary().forEach(line -> notes.add("asked-about jobs' " + line));
    Map<String, MapNode.Entry> entries = new LinkedHashMap<>(wl.entries());
    if (!keepArrivals) {
      dropped(entries, "classes", "generated classes");
      dropped(entries, "traces", "traces");
    }
    entries.put("list", new MapNode.Entry(key("list", "workloads.list", wl.location()),
        new ListNode(wl.location(), "workloads.list", listed)));
    Map<String, MapNode.Entry> top = new LinkedHashMap<>(root.entries());
    top.put("workloads", new MapNode.Entry(key("workloads", "workloads", root.location()),
        new MapNode(wl.location(), "workloads", entries)));
    LoadedScenario s = ScenarioLoader.bind(new Composition(new MapNode(root.location(), root.path(), top), c.file(),
        c.sha256()), List.of(), null);
    if (s.volcano() != null) {
      throw fail(new Location(c.file(), 1, 1), "eta answers for Kueue: this scenario runs under Volcano");
    }
    return new Loaded(s, source, asked, notes, keepArrivals);
  }

  /** The kubectl files of {@code snapshot} (a directory: its YAML and JSON files), or null for a scenario. */
  private List<Path> kubectlFiles(Path snapshot) throws IOException, ScenarioException {
    if (Files.isDirectory(snapshot)) {
      List<Path> files;
      try (Stream<Path> s = Files.list(snapshot)) {
        files = s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().matches(".*\\.(ya?ml|json)"))
            .sorted().toList();
      }
      if (files.isEmpty()) {
        throw fail(new Location(snapshot.toString(), 1, 1), "the directory holds no .yaml, .yml or .json file");
      }
      return files;
    }
    if (!Files.exists(snapshot)) {
      throw fail(Location.argument("SNAPSHOT"), snapshot + ": no such file or directory");
    }
    List<Node> docs = YamlTreeReader.readAll(snapshot.toString(), RegularFiles.readString(snapshot), sink);
    throwIfAny();
    Node first = docs.stream().filter(d -> d instanceof MapNode).findFirst().orElse(null);
    if (first instanceof MapNode m && (m.get("apiVersion") != null || m.get("kind") != null)) {
      return List.of(snapshot);
    }
    if (first instanceof MapNode m && SCENARIO_KEYS.stream().anyMatch(k -> m.get(k) != null)) {
      return null;
    }
    throw fail(first == null ? new Location(snapshot.toString(), 1, 1) : first.location(), "neither a scenario "
        + "(no cluster:, workloads: or clusterQueues:) nor kubectl output (no apiVersion and kind): give a scenario "
        + "written by `batchsim import`, a directory of kubectl output, or one kubectl file");
  }

  /** The snapshot imported in memory, as {@code batchsim import FILES...} would write it. */
  private Composition imported(Path snapshot, List<Path> files) throws ScenarioException {
    ScenarioImport.Result r = ScenarioImport.run(files, null, ScenarioImport.Options.DEFAULT);
    if (!r.errors().isEmpty()) {
      r.errors().forEach(e -> problems.add(new Problem(Location.argument("SNAPSHOT"), "", e)));
      throwIfAny();
    }
    r.notes().stream().filter(n -> n.startsWith("runtimes:")).forEach(n -> notes.add("snapshot's " + n));
    if (!r.warnings().isEmpty()) {
      notes.add("the import warned " + r.warnings().size() + " times (`batchsim import` on the snapshot's files says "
          + "where)");
    }
    String name = snapshot + " (imported)";
    Node root = YamlTreeReader.read(name, r.yaml(), sink);
    throwIfAny();
    return new Composition(root, name, ScenarioLoader.sha256(r.yaml().getBytes(StandardCharsets.UTF_8)));
  }

  /** A scenario's header lines that say where runtimes came from ({@code # runtimes: ...}, written by import). */
  private void header(Path scenario) throws IOException {
    for (String line : RegularFiles.readString(scenario).lines().takeWhile(l -> l.startsWith("#")).toList()) {
      String text = line.substring(1).trim();
      if (text.startsWith("runtimes:")) {
        notes.add("snapshot's " + text);
      }
    }
  }

  private List<JobTemplateReader.JobTemplate> templates(Path job) throws IOException, ScenarioException {
    if (!Files.isRegularFile(job)) {
      throw fail(Location.argument("JOB"), job + ": no such file");
    }
    // against a kubectl snapshot, priorities resolve as Kueue resolves them against its classes; against a
    // scenario, class names are references to the scenario's priorityClasses
    List<KubeObjects.KubeObject> objects = KubeObjects.read(job, job.toString(), sink);
    List<JobTemplateReader.JobTemplate> t = snapshotObjects == null
        ? JobTemplateReader.read(objects, sink, new Warnings())
        : JobTemplateReader.read(objects, snapshotObjects, sink, new Warnings());
    if (t.isEmpty() && problems.isEmpty()) {
      problems.add(new Problem(new Location(job.toString(), 1, 1), "", "holds no job Kueue would admit (a job of a kind "
          + "Kueue integrates: README, Real inputs)"));
    }
    return t;
  }

  /** The job as a workload listed at t = 0; its queue, priority and pod sets keep their manifest locations. */
  private Asked addJob(JobTemplateReader.JobTemplate t, JobRuntimes runtimes, List<Node> listed) {
    MapNode tpl = t.template();
    String ns = t.source().namespaceOrDefault();
    String id = ns + "/" + t.name();
    Location at = t.source().location();
    String what = t.kind() + " " + id + " (" + at + ")";
    Node queue = tpl.get("queue");
    if (queue == null) {
      problems.add(new Problem(at, "metadata.labels", t.kind() + " " + id + " has no kueue.x-k8s.io/queue-name "
          + "label: Kueue would not manage it"));
      return new Asked(id, what, null);
    }
    if (listed.stream().anyMatch(n -> id.equals(name(n)))) {
      problems.add(new Problem(at, "metadata.name", what + ": the snapshot already has a workload named " + id
          + "; ask about it with --workload " + id));
      return new Asked(id, what, null);
    }
    JobRuntimes.Runtime runtime = runtimes.of(t.source(), ((ScalarNode) queue).text());
    String path = "workloads.list[" + listed.size() + "]";
    Map<String, MapNode.Entry> e = new LinkedHashMap<>();
    put(e, path, "name", new ScalarNode(at, path + ".name", id, ScalarNode.Type.STRING));
    put(e, path, "queue", queue);
    put(e, path, "at", new ScalarNode(at, path + ".at", "0s", ScalarNode.Type.STRING));
    put(e, path, "priorityClass", tpl.get("priorityClass"));
    put(e, path, "priority", tpl.get("priority"));
    put(e, path, "runtime", runtime.node());
    put(e, path, "podSets", tpl.get("podSets"));
    listed.add(new MapNode(at, path, e));
    return new Asked(id, what, runtime.source());
  }

  /** {@code --workload NS/NAME}: a pending workload of the snapshot. */
  private Asked pendingWorkload(String name, List<Node> listed) {
    Location arg = Location.argument("--workload " + name);
    for (Node n : listed) {
      if (name.equals(name(n))) {
        if (n instanceof MapNode m && m.get("quotaReserved") != null) {
          problems.add(new Problem(arg, "", name + " holds quota already (quotaReserved): it is admitted, not pending"));
        }
        return new Asked(name, "pending Workload " + name + (imported ? " of the snapshot" : " (" + n.location() + ")"),
            null);
      }
    }
    List<String> pending = listed.stream().filter(n -> n instanceof MapNode m && m.get("quotaReserved") == null)
        .map(EtaSnapshot::name).toList();
    problems.add(new Problem(arg, "", "the snapshot has no workload " + name + (pending.isEmpty()
        ? " and no pending one" : "; its pending workloads: " + String.join(", ", pending))));
    return new Asked(name, name, null);
  }

  private void dropped(Map<String, MapNode.Entry> entries, String key, String what) {
    MapNode.Entry e = entries.remove(key);
    if (e != null && e.value() instanceof ListNode l && !l.items().isEmpty()) {
      notes.add("dropped the scenario's " + l.items().size() + " " + what + " (" + e.key().location()
          + "): no arrivals after the snapshot (--arrivals scenario keeps them)");
    }
  }

  private static String name(Node n) {
    return n instanceof MapNode m && m.get("name") instanceof ScalarNode s ? s.text() : null;
  }

  private static void put(Map<String, MapNode.Entry> e, String path, String key, Node value) {
    if (value != null) {
      e.put(key, new MapNode.Entry(key(key, path + "." + key, value.location()), value));
    }
  }

  private static ScalarNode key(String key, String path, Location at) {
    return new ScalarNode(at, path, key, ScalarNode.Type.STRING);
  }

  private ScenarioException fail(Location at, String message) {
    problems.add(new Problem(at, "", message));
    return new ScenarioException(List.copyOf(problems));
  }

  private void throwIfAny() throws ScenarioException {
    if (!problems.isEmpty()) {
      throw new ScenarioException(List.copyOf(problems));
    }
  }
}
