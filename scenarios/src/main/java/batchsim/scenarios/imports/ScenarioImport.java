package batchsim.scenarios.imports;

import batchsim.core.model.Quantity;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Taint;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.scenarios.yaml.YamlTreeReader;
import batchsim.workloads.trace.AlibabaNodeReader;
import batchsim.workloads.trace.GpuOptions;
import batchsim.workloads.trace.NodePools;
import batchsim.workloads.trace.NodeRecord;
import batchsim.workloads.trace.OnError;
import batchsim.workloads.trace.TraceFormat;
import batchsim.workloads.trace.TraceFormatException;
import batchsim.workloads.trace.TraceMapping;
import batchsim.workloads.trace.TraceScan;
import batchsim.workloads.trace.TraceSelection;
import batchsim.workloads.trace.TraceSource;
import batchsim.workloads.trace.TraceStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Assembles a scenario file from real inputs ({@code batchsim import}). Kueue objects, nodes and job
 * manifests are translated inline; traces, Alibaba node lists and generator files are referenced by path
 * (relative to the output file), never copied. What the inputs do not give is generated and says so in a
 * comment: one ClusterQueue per trace queue (quota in proportion to the queue's demand), a cluster sized
 * from the trace, placeholder arrivals for job templates. Every section's comment names its source.
 */
public final class ScenarioImport {
  private static final Location HERE = new Location("<import>", 1, 1);
  private static final List<String> TRACE_RESOURCES = List.of("cpu", "memory", "pods", "nvidia.com/gpu");
  /** Generated quotas and placeholder clusters aim at this utilization of the trace's mean demand. */
  private static final double TARGET_LOAD = 0.7;

  /**
   * @param name the scenario name (null: the first input's file name)
   * @param queueFrom the trace attribute that picks a job's queue (null: vc for Philly, qos for Alibaba,
   *     one queue for SWF)
   * @param unitsPerPod processors or GPUs per pod (null: 1, or gpusPerNode for Philly)
   * @param gpusPerNode GPUs per node for Philly VC sizes and placeholder GPU nodes
   * @param maxQueues at most this many queues per trace; rarer values share one "other" queue
   */
  public record Options(String name, String queueFrom, Integer unitsPerPod, int gpusPerNode, int maxQueues) {
    public static final Options DEFAULT = new Options(null, null, null, 8, 50);
  }

  /** The scenario text, warnings (things not carried over) and errors (inputs that could not be read). */
  public record Result(String yaml, List<String> warnings, List<String> errors) {}

  private final Options options;
  private final Path outDir;
  private final Warnings warnings = new Warnings();
  private final List<String> errors = new ArrayList<>();
  private final IssueSink sink = (at, path, message) -> errors.add(at + ": " + (path.isEmpty() ? "" : path + ": ")
      + message);
  private final List<String> header = new ArrayList<>();
  private final IdentityHashMap<Node, List<String>> comments = new IdentityHashMap<>();

  private final List<KubeObject> objects = new ArrayList<>();
  private final List<Node> pools = new ArrayList<>();
  private final List<Node> nodesFrom = new ArrayList<>();
  private final List<String> clusterSources = new ArrayList<>();
  private final Map<String, Long> capacity = new LinkedHashMap<>();
  private final List<Node> topologies = new ArrayList<>();
  private final List<Node> flavors = new ArrayList<>();
  private final List<Node> cohorts = new ArrayList<>();
  private final List<Node> clusterQueues = new ArrayList<>();
  private final List<Node> localQueues = new ArrayList<>();
  private final List<Node> priorityClasses = new ArrayList<>();
  private final List<String> queueSources = new ArrayList<>();
  private final List<Node> classes = new ArrayList<>();
  private final List<Node> traces = new ArrayList<>();
  private final List<TraceQueues> traceQueues = new ArrayList<>();
  private final Map<String, Long> vcNodes = new LinkedHashMap<>();

  private ScenarioImport(Options options, Path outDir) {
    this.options = options;
    this.outDir = outDir;
  }

  /** Imports {@code inputs} into a scenario meant to be written to {@code outFile} (null: standard output). */
  public static Result run(List<Path> inputs, Path outFile, Options options) {
    Path dir = (outFile == null ? Path.of("") : outFile.toAbsolutePath().getParent()).toAbsolutePath().normalize();
    ScenarioImport i = new ScenarioImport(options, dir);
    return i.importAll(inputs);
  }

  private Result importAll(List<Path> inputs) {
    String name = options.name() != null ? options.name() : inputs.isEmpty() ? "imported" : dns(baseName(inputs.get(0)));
    header.add(name + ": imported by `batchsim import` from:");
    List<Path> traceFiles = new ArrayList<>();
    List<InputKind> traceKinds = new ArrayList<>();
    for (Path p : inputs) {
      InputKind kind;
      try {
        kind = InputKind.of(p);
      } catch (IOException | IllegalArgumentException e) {
        errors.add(e instanceof IOException ? p + ": cannot read: " + e.getMessage() : e.getMessage());
        continue;
      }
      try {
        switch (kind) {
          case MANIFESTS -> manifests(p);
          case PHILLY_VCS -> philyVcs(p);
          case ALIBABA_NODES -> alibabaNodes(p);
          default -> {
            traceFiles.add(p);
            traceKinds.add(kind);
          }
        }
      } catch (IOException e) {
        errors.add(p + ": cannot read: " + e.getMessage());
      }
    }
    translateObjects();
    for (int t = 0; t < traceFiles.size(); t++) {
      trace(traceFiles.get(t), traceKinds.get(t));
    }
    if (pools.isEmpty() && nodesFrom.isEmpty()) {
      placeholderCluster();
    }
    if (clusterQueues.isEmpty()) {
      generateQueues(name);
    }
    routeTraces();
    return new Result(write(name), warnings.lines(), List.copyOf(errors));
  }

  // ---- inputs -------------------------------------------------------------------------------------------

  private void manifests(Path p) throws IOException {
    String text = Files.readString(p, StandardCharsets.UTF_8);
    Node first = YamlTreeReader.read(p.toString(), text, (a, b, c) -> { });
    if (first instanceof MapNode m && m.get("apiVersion") == null && GeneratorReader.looksLike(m)) {
      generator(p, GeneratorReader.read(m, sink, warnings));
      return;
    }
    List<KubeObject> read = KubeObjects.parse(p.toString(), text, sink);
    objects.addAll(read);
    Map<String, Integer> kinds = new LinkedHashMap<>();
    read.forEach(o -> kinds.merge(o.kind(), 1, Integer::sum));
    List<String> counts = new ArrayList<>();
    kinds.forEach((k, n) -> counts.add(n + " " + k + (n == 1 ? "" : k.endsWith("s") ? "es" : "s")));
    header.add("  " + rel(p) + ": " + (counts.isEmpty() ? "no objects" : String.join(", ", counts)));
  }

  private void translateObjects() {
    for (KubeObject o : objects) {
      if (!KueueManifestReader.handles(o) && !NodeListReader.handles(o) && !JobTemplateReader.handles(o)) {
        warnings.add("kind:" + o.kind(), o.location(), o.describe() + ": batchsim reads Kueue objects, Nodes, Jobs, "
            + "JobSets and Pods; ignored");
      }
    }
    KueueManifestReader.Result kueue = KueueManifestReader.read(objects, warnings);
    commented(topologies, kueue.topologies());
    commented(flavors, kueue.flavors());
    commented(cohorts, kueue.cohorts());
    commented(clusterQueues, kueue.clusterQueues());
    commented(localQueues, kueue.localQueues());
    commented(priorityClasses, kueue.priorityClasses());
    if (!kueue.isEmpty()) {
      Set<String> files = new LinkedHashSet<>();
      objects.stream().filter(KueueManifestReader::handles).forEach(o -> files.add(rel(Path.of(o.location().file()))));
      queueSources.add("Kueue objects from " + String.join(", ", files));
    }
    List<NodeRecord> nodes = NodeListReader.read(objects, NodeListReader.Options.DEFAULT, sink, warnings);
    if (!nodes.isEmpty()) {
      List<NodePools.Pool> grouped = NodeListReader.pools(nodes);
      grouped.forEach(p -> pools.add(pool(p)));
      clusterSources.add(nodes.size() + " nodes from kubectl output, grouped into " + grouped.size()
          + " pools of identical nodes (per-node labels such as kubernetes.io/hostname dropped)");
    }
    for (JobTemplateReader.JobTemplate t : JobTemplateReader.read(objects, sink, warnings)) {
      jobClass(t);
    }
  }

  private void commented(List<Node> into, List<MapNode> entries) {
    for (MapNode e : entries) {
      into.add(e);
      comments.put(e, List.of("from " + e.location()));
    }
  }

  private void philyVcs(Path p) throws IOException {
    List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
    for (int i = 1; i < lines.size(); i++) {
      String[] f = lines.get(i).split(",");
      if (lines.get(i).isBlank()) {
        continue;
      }
      try {
        vcNodes.put(f[0].trim(), Long.parseLong(f[1].trim()));
      } catch (RuntimeException e) {
        errors.add(p + ":" + (i + 1) + ":1: expected 'vc,node num', got '" + lines.get(i) + "'");
      }
    }
    header.add("  " + rel(p) + ": node counts of " + vcNodes.size() + " Philly VCs (" + options.gpusPerNode()
        + " GPUs per node)");
  }

  private void alibabaNodes(Path p) {
    List<NodeRecord> nodes = new ArrayList<>();
    try (AlibabaNodeReader r = AlibabaNodeReader.open(p, p.toString(), OnError.SKIP, GpuOptions.DEFAULT)) {
      NodeRecord n;
      while ((n = r.next()) != null) {
        nodes.add(n);
      }
      r.skipped().forEach(e -> warnings.add("alibaba-nodes:" + e.line(), location(e), e.detail() + "; line skipped"));
    } catch (TraceFormatException e) {
      errors.add(e.getMessage());
      return;
    }
    List<NodePools.Pool> grouped = NodePools.group(nodes, n -> NodePools.describe(n, GpuOptions.DEFAULT));
    grouped.forEach(pool -> pool.allocatable().forEach((r, v) -> capacity.merge(r, v * pool.count(), Long::sum)));
    nodesFrom.add(Tree.map(HERE, "").put("format", "alibaba-nodes", HERE).put("path", rel(p), HERE).build());
    header.add("  " + rel(p) + ": " + nodes.size() + " Alibaba nodes (" + grouped.size() + " kinds), read when the "
        + "scenario loads");
    clusterSources.add("the nodes of " + rel(p) + " (cluster.nodesFrom; identical nodes become one pool)");
  }

  private void generator(Path p, GeneratorReader.Config c) {
    if (c == null) {
      return;
    }
    header.add("  " + rel(p) + ": Kueue scheduler performance-test generator file (" + c.queues().size()
        + " ClusterQueues)");
    GeneratorReader.Topology topo = c.topology();
    Tree.Map_ flavor = Tree.map(HERE, "").put("name", c.flavor(), HERE);
    if (topo != null) {
      List<Node> levels = new ArrayList<>();
      topo.labels().forEach(l -> levels.add(Tree.string(HERE, "", l)));
      topologies.add(Tree.map(HERE, "").put("name", topo.name(), HERE).put("levels", Tree.list(HERE, "", levels))
          .build());
      flavor.put("nodeLabels", Tree.map(HERE, "").put(topo.flavorNodeLabel(), "tas", HERE).build())
          .put("topologyName", topo.name(), HERE);
    }
    flavors.add(flavor.build());
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
      clusterQueues.add(cq.build());
      localQueues.add(Tree.map(HERE, "").put("namespace", q.name(), HERE).put("name", q.name(), HERE)
          .put("clusterQueue", q.name(), HERE).build());
      try {
        totalNominal += Quantity.parse("cpu", q.nominalQuota() == null ? "0" : q.nominalQuota().text());
      } catch (IllegalArgumentException e) {
        // reported by the generator reader
      }
    }
    queueSources.add("ClusterQueues, LocalQueues and cohorts (" + String.join(", ", cohortNames)
        + ") as Kueue's generator names them, from " + rel(p));
    if (topo != null) {
      Tree.Map_ alloc = Tree.map(HERE, "");
      topo.capacity().forEach((r, v) -> alloc.put(r, v, HERE));
      List<Node> shape = new ArrayList<>();
      topo.counts().forEach(n -> shape.add(Tree.integer(HERE, "", n)));
      pools.add(Tree.map(HERE, "").put("name", "node", HERE)
          .put("labels", Tree.map(HERE, "").put(topo.flavorNodeLabel(), "tas", HERE).build())
          .put("allocatable", alloc.build())
          .put("topology", Tree.map(HERE, "").put("name", topo.name(), HERE).put("shape", Tree.list(HERE, "", shape))
              .build()).build());
      clusterSources.add("the generator's topology: " + topo.nodes() + " nodes labelled as Kueue's generator labels "
          + "them (" + String.join(" x ", topo.counts().stream().map(String::valueOf).toList()) + ")");
    } else {
      long nodes = Math.max(1, (totalNominal + 63_999) / 64_000);
      pools.add(Tree.map(HERE, "").put("name", "node", HERE).put("count", Tree.integer(HERE, "", nodes))
          .put("allocatable", Tree.map(HERE, "").put("cpu", "64", HERE).put("memory", "256Gi", HERE)
              .put("pods", "1000", HERE).build()).build());
      clusterSources.add("generated: enough 64-cpu nodes for every ClusterQueue's nominal quota, so node capacity never "
          + "binds (Kueue's performance test runs no pods)");
    }
    traces.add(Tree.map(HERE, "").put("name", baseName(p), HERE).put("format", "kueue-generator", HERE)
        .put("path", rel(p), HERE).build());
  }

  // ---- traces -------------------------------------------------------------------------------------------

  /** A trace's queue values, for generating ClusterQueues and routing its jobs. */
  private record TraceQueues(String trace, String attribute, Tree.Map_ entry, List<String> values,
      Map<String, Long> demand, Set<String> resources, long spanMs, TraceFormat format, long maxProcs, int maxUnits,
      int unitsPerPod) {}

  private void trace(Path p, InputKind kind) {
    TraceFormat format = kind == InputKind.SWF ? TraceFormat.SWF : kind == InputKind.PHILLY ? TraceFormat.PHILLY
        : TraceFormat.ALIBABA;
    String attribute = options.queueFrom() != null && format.attributes().contains(options.queueFrom())
        ? options.queueFrom() : format == TraceFormat.PHILLY ? "vc" : format == TraceFormat.ALIBABA ? "qos" : null;
    if (options.queueFrom() != null && !format.attributes().contains(options.queueFrom())) {
      warnings.add("queueFrom:" + format, new Location(p.toString(), 1, 1), format.id() + " traces have no column '"
          + options.queueFrom() + "' (they have " + String.join(", ", format.attributes()) + ")"
          + (attribute == null ? "; one queue for all jobs" : "; using " + attribute));
    }
    int unitsPerPod = options.unitsPerPod() != null ? options.unitsPerPod()
        : format == TraceFormat.PHILLY ? options.gpusPerNode() : 1;
    Map<String, Long> perUnit = format == TraceFormat.SWF ? Map.of("cpu", 1000L)
        : format == TraceFormat.PHILLY ? Map.of("nvidia.com/gpu", 1L) : Map.of();
    String name = dns(baseName(p));
    TraceMapping mapping = new TraceMapping(name, null, new TraceMapping.Route(attribute == null ? name : null,
        attribute, Map.of()), TraceMapping.Route.of(null), Map.of(), new TraceMapping.PodShape(perUnit, Map.of(),
        format == TraceFormat.ALIBABA ? 1 : unitsPerPod, 0), false, 1);
    TraceStats stats;
    try {
      TraceScan.Raw raw = TraceScan.raw(p, p.toString(), format, GpuOptions.DEFAULT);
      TraceSource source = new TraceSource(name, p, p.toString(), format, GpuOptions.DEFAULT,
          TraceSelection.ALL.withOnError(OnError.SKIP), mapping, ResourceSpace.of(TRACE_RESOURCES), !raw.sorted());
      stats = TraceScan.scan(source, raw);
    } catch (TraceFormatException e) {
      errors.add(e.getMessage());
      return;
    } catch (IOException | RuntimeException e) {
      errors.add(p + ": cannot read: " + e.getMessage());
      return;
    }
    stats.malformed().forEach(e -> warnings.add("malformed:" + p + ":" + e.line(), location(e), e.detail()));
    Tree.Map_ entry = Tree.map(HERE, "").put("name", name, HERE).put("format", format.id(), HERE)
        .put("path", rel(p), HERE);
    if (stats.malformedCount() > 0) {
      entry.put("onError", "skip", HERE);
    }
    if (format != TraceFormat.ALIBABA) {
      Tree.Map_ pu = Tree.map(HERE, "");
      perUnit.forEach((r, v) -> pu.put(r, Quantities.exact(r, v), HERE));
      entry.put("perUnit", pu.build()).put("unitsPerPod", Tree.integer(HERE, "", unitsPerPod));
    }
    Map<String, Long> demand = new LinkedHashMap<>();
    Set<String> resources = new LinkedHashSet<>();
    stats.queues().values().stream().sorted((a, b) -> Long.compare(b.jobs(), a.jobs()))
        .forEach(u -> demand.put(u.queue(), u.unitSeconds()));
    stats.queues().values().forEach(u -> resources.addAll(u.resources()));
    long maxProcs = 0;
    try {
      maxProcs = Long.parseLong(stats.header().getOrDefault("MaxProcs", "0").trim());
    } catch (NumberFormatException e) {
      // a header without a usable MaxProcs: sized from the demand instead
    }
    List<String> values = new ArrayList<>(demand.keySet());
    traceQueues.add(new TraceQueues(name, attribute, entry, values, demand, resources,
        Math.max(1, stats.lastCreatedMs() - stats.firstCreatedMs()), format, maxProcs, stats.maxUnits(), unitsPerPod));
    header.add("  " + rel(p) + ": " + format.id() + " trace, " + String.format(Locale.ROOT, "%,d", stats.selected())
        + " jobs" + (attribute == null ? "" : " in " + values.size() + " " + attribute + " value" + (values.size() == 1 ? "" : "s"))
        + (stats.sorted() ? "" : ", not sorted by submission time (batchsim sorts it)")
        + (stats.droppedUnknown() > 0 ? ", " + stats.droppedUnknown() + " of unknown size or runtime (dropped)" : "")
        + (stats.malformedCount() > 0 ? ", " + stats.malformedCount() + " malformed lines (skipped)" : ""));
  }

  /** Queue name of a trace value: its namespace is the trace, e.g. philly/6214e9 (one queue: trace/main). */
  private static String lq(TraceQueues t, String value) {
    return t.trace() + "/" + (t.attribute() == null ? "main" : dns(value));
  }

  private static String cq(TraceQueues t, String value) {
    return t.attribute() == null ? t.trace() : dns(t.attribute() + "-" + value);
  }

  /** One ClusterQueue per trace queue value in a cohort per trace, quotas in proportion to demand. */
  private void generateQueues(String scenario) {
    if (traceQueues.isEmpty()) {
      generateJobQueues();
      return;
    }
    flavors.add(Tree.map(HERE, "").put("name", "default", HERE).build());
    for (TraceQueues t : traceQueues) {
      List<String> own = own(t);
      boolean other = t.values().size() > own.size();
      long totalDemand = t.demand().values().stream().mapToLong(Long::longValue).sum();
      List<String> resources = TRACE_RESOURCES.stream().filter(r -> t.resources().contains(r) && !r.equals("pods"))
          .toList();
      if (t.values().size() > 1) {
        cohorts.add(Tree.map(HERE, "").put("name", t.trace(), HERE).build());
      }
      List<Double> shares = new ArrayList<>();
      for (String v : own) {
        shares.add(totalDemand == 0 ? 1.0 / own.size() : t.demand().get(v) / (double) totalDemand);
      }
      Map<String, long[]> quotas = new LinkedHashMap<>();
      for (String r : resources) {
        quotas.put(r, split(capacity.getOrDefault(r, 0L), shares, granule(r)));
      }
      for (int i = 0; i < own.size(); i++) {
        String v = own.get(i);
        Map<String, Long> q = new LinkedHashMap<>();
        for (String r : resources) {
          q.put(r, t.format() == TraceFormat.PHILLY && !vcNodes.isEmpty() && r.equals("nvidia.com/gpu")
              ? vcNodes.get(v) * options.gpusPerNode() : quotas.get(r)[i]);
        }
        clusterQueue(t, cq(t, v), q, t.values().size() > 1);
        localQueues.add(Tree.map(HERE, "").put("namespace", t.trace(), HERE)
            .put("name", t.attribute() == null ? "main" : dns(v), HERE)
            .put("clusterQueue", cq(t, v), HERE).build());
      }
      if (other) {
        Map<String, Long> none = new LinkedHashMap<>();
        resources.forEach(r -> none.put(r, 0L)); // borrows only
        clusterQueue(t, t.trace() + "-other", none, true);
        localQueues.add(Tree.map(HERE, "").put("namespace", t.trace(), HERE).put("name", "other", HERE)
            .put("clusterQueue", t.trace() + "-other", HERE).build());
      }
      queueSources.add("generated for " + t.trace() + ": " + (t.attribute() == null ? "one ClusterQueue"
          : "one ClusterQueue per " + t.attribute() + (other ? " (the rest share " + t.trace() + "-other)" : "")
          + " in cohort " + t.trace()) + "; nominal quota "
          + (t.format() == TraceFormat.PHILLY && !vcNodes.isEmpty() ? "= VC nodes x " + options.gpusPerNode() + " GPUs"
          : "in proportion to each queue's demand (job size x runtime), summing to the cluster"));
    }
  }

  private void clusterQueue(TraceQueues t, String name, Map<String, Long> amounts, boolean cohort) {
    List<Node> quotas = new ArrayList<>();
    amounts.forEach((r, amount) -> quotas.add(Tree.map(HERE, "").put("name", r, HERE)
        .put("nominalQuota", Quantities.exact(r, amount), HERE).build()));
    Tree.Map_ cq = Tree.map(HERE, "").put("name", name, HERE);
    if (cohort) {
      cq.put("cohortName", t.trace(), HERE);
    }
    cq.put("resourceGroups", list(group(List.copyOf(amounts.keySet()), "default", quotas)));
    clusterQueues.add(cq.build());
  }

  /** Quotas are whole cores, whole GiB, whole units. */
  private static long granule(String resource) {
    return Quantity.isMilli(resource) ? 1000 : Quantity.isBytes(resource) ? 1L << 30 : 1;
  }

  /**
   * {@code total} split by {@code shares} in whole granules, largest remainders first, so that the quotas
   * add up to the cluster exactly (a job as big as the cluster must fit the cohort).
   */
  static long[] split(long total, List<Double> shares, long granule) {
    long units = total / granule;
    long[] out = new long[shares.size()];
    double[] rest = new double[shares.size()];
    long given = 0;
    for (int i = 0; i < out.length; i++) {
      double exact = units * shares.get(i);
      out[i] = (long) Math.floor(exact);
      rest[i] = exact - out[i];
      given += out[i];
    }
    for (long left = units - given; left > 0; left--) {
      int best = 0;
      for (int i = 1; i < rest.length; i++) {
        if (rest[i] > rest[best]) {
          best = i;
        }
      }
      out[best]++;
      rest[best] = -1;
    }
    for (int i = 0; i < out.length; i++) {
      out[i] *= granule;
    }
    return out;
  }

  /** Job templates without Kueue objects: one ClusterQueue per LocalQueue they name, owning the cluster. */
  private void generateJobQueues() {
    Set<String> queues = new LinkedHashSet<>();
    Set<String> resources = new LinkedHashSet<>();
    for (Node c : classes) {
      String q = Tree.text(c, "queue");
      if (q != null) {
        queues.add(q);
      }
    }
    capacity.keySet().stream().filter(r -> !r.equals("pods")).forEach(resources::add);
    if (queues.isEmpty()) {
      return;
    }
    flavors.add(Tree.map(HERE, "").put("name", "default", HERE).build());
    for (String q : queues) {
      String ns = q.contains("/") ? q.substring(0, q.indexOf('/')) : null;
      String name = q.substring(q.indexOf('/') + 1);
      List<Node> quotas = new ArrayList<>();
      for (String r : resources) {
        quotas.add(Tree.map(HERE, "").put("name", r, HERE).put("nominalQuota",
            Quantities.exact(r, capacity.getOrDefault(r, 0L) / queues.size()), HERE).build());
      }
      clusterQueues.add(Tree.map(HERE, "").put("name", name, HERE)
          .put("resourceGroups", list(group(List.copyOf(resources), "default", quotas))).build());
      Tree.Map_ lq = Tree.map(HERE, "");
      if (ns != null) {
        lq.put("namespace", ns, HERE);
      }
      localQueues.add(lq.put("name", name, HERE).put("clusterQueue", name, HERE).build());
    }
    queueSources.add("generated: one ClusterQueue per LocalQueue the job manifests name, sharing the cluster evenly");
  }

  /** Fills in each trace entry's queue routing, now that the queues are known. */
  private void routeTraces() {
    boolean generated = !traceQueues.isEmpty() && queueSources.stream().anyMatch(s -> s.startsWith("generated for"));
    for (TraceQueues t : traceQueues) {
      Tree.Map_ e = t.entry();
      if (!generated) {
        String first = localQueues.isEmpty() ? "default/main" : fullName(localQueues.get(0));
        e.put("queue", first, HERE);
        MapNode built = e.build();
        comments.put(built, List.of("every job goes to " + first + ": route by a trace column with queueFrom and queueMap"));
        traces.add(built);
        continue;
      }
      if (t.attribute() == null) {
        e.put("queue", lq(t, t.values().isEmpty() ? t.trace() : t.values().get(0)), HERE);
      } else {
        e.put("queueFrom", t.attribute(), HERE);
        Tree.Map_ map = Tree.map(HERE, "");
        List<String> own = own(t);
        own.forEach(v -> map.put(v, lq(t, v), HERE));
        e.put("queueMap", map.build());
        if (t.values().size() > own.size()) {
          e.put("queue", t.trace() + "/other", HERE);
        }
      }
      traces.add(e.build());
    }
  }

  /**
   * The values that get a queue of their own: the Philly VCs with a known size, or else the
   * {@code maxQueues} with the most jobs; the others share "other".
   */
  private List<String> own(TraceQueues t) {
    if (t.format() == TraceFormat.PHILLY && !vcNodes.isEmpty()) {
      return t.values().stream().filter(vcNodes::containsKey).toList();
    }
    return t.values().subList(0, Math.min(t.values().size(), options.maxQueues()));
  }

  private static String fullName(Node lq) {
    String ns = Tree.text(lq, "namespace");
    return (ns == null ? "" : ns + "/") + Tree.text(lq, "name");
  }

  // ---- cluster ------------------------------------------------------------------------------------------

  private Node pool(NodePools.Pool p) {
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
      capacity.merge(r, v * p.count(), Long::sum);
    });
    return m.put("allocatable", alloc.build()).build();
  }

  /** Nodes for a trace without a node list: sized for its mean demand at 70% utilization. */
  private void placeholderCluster() {
    long cpuNodes = 0;
    long cpusPerNode = 1;
    long gpuNodes = 0;
    boolean alibaba = false;
    for (TraceQueues t : traceQueues) {
      long unitSeconds = t.demand().values().stream().mapToLong(Long::longValue).sum();
      double mean = unitSeconds / (t.spanMs() / 1000.0) / TARGET_LOAD;
      switch (t.format()) {
        // never smaller than the largest job, which would otherwise wait forever
        case SWF -> {
          cpusPerNode = Math.max(cpusPerNode, t.unitsPerPod()); // a pod of unitsPerPod processors must fit a node
          long procs = t.maxProcs() > 0 ? t.maxProcs() : Math.max(t.maxUnits(), (long) Math.ceil(mean));
          cpuNodes += (procs + cpusPerNode - 1) / cpusPerNode;
        }
        case PHILLY -> gpuNodes += !vcNodes.isEmpty() ? vcNodes.values().stream().mapToLong(Long::longValue).sum()
            : (long) Math.ceil(Math.max(t.maxUnits(), mean) / options.gpusPerNode());
        default -> alibaba = true;
      }
    }
    if (cpuNodes > 0) {
      pools.add(pool(new NodePools.Pool("cpu", (int) cpuNodes, new TreeMap<>(), List.of(),
          new TreeMap<>(Map.of("cpu", 1000L * cpusPerNode)), 0)));
    }
    if (gpuNodes > 0) {
      pools.add(pool(new NodePools.Pool("gpu", (int) gpuNodes, new TreeMap<>(), List.of(),
          new TreeMap<>(Map.of("nvidia.com/gpu", (long) options.gpusPerNode())), 0)));
    }
    if (alibaba) {
      pools.add(pool(new NodePools.Pool("gpu-node", 100, new TreeMap<>(), List.of(), new TreeMap<>(Map.of("cpu",
          96_000L, "memory", 768L << 30, "nvidia.com/gpu", 8L)), 0)));
    }
    if (pools.isEmpty()) {
      pools.add(pool(new NodePools.Pool("node", 10, new TreeMap<>(), List.of(), new TreeMap<>(Map.of("cpu", 64_000L,
          "memory", 256L << 30)), 0)));
    }
    List<String> how = new ArrayList<>();
    if (cpuNodes > 0) {
      how.add("SWF: " + cpusPerNode + "-cpu nodes, one cpu per processor (the header's MaxProcs, else enough for the "
          + "trace's mean demand at about " + Math.round(TARGET_LOAD * 100) + "% utilization)");
    }
    if (gpuNodes > 0) {
      how.add(!vcNodes.isEmpty() ? "Philly: the nodes of the VC sizes, " + options.gpusPerNode() + " GPUs each"
          : "Philly: " + options.gpusPerNode() + "-GPU nodes for the trace's mean demand at about "
          + Math.round(TARGET_LOAD * 100) + "% utilization");
    }
    if (alibaba) {
      how.add("Alibaba: 100 nodes of 8 GPUs (give the trace's node CSV to use its real nodes)");
    }
    clusterSources.add("No node list was given, so these nodes are generated (edit them): " + String.join("; ", how)
        + (how.isEmpty() ? "10 nodes of 64 cpu" : ""));
  }

  // ---- job templates ------------------------------------------------------------------------------------

  private void jobClass(JobTemplateReader.JobTemplate t) {
    Path file = Path.of(t.source().location().file());
    Tree.Map_ c = Tree.map(HERE, "").put("name", dns(t.name()), HERE);
    long sameFile = objects.stream().filter(o -> JobTemplateReader.handles(o)
        && o.location().file().equals(t.source().location().file())).count();
    if (sameFile > 1) {
      c.put("manifest", Tree.map(HERE, "").put("path", rel(file), HERE).put("name", t.name(), HERE).build());
    } else {
      c.put("manifest", rel(file), HERE);
    }
    ScalarNode queue = (ScalarNode) t.template().get("queue");
    if (queue != null) {
      c.put("queue", queue.text(), HERE);
    }
    c.put("arrival", Tree.map(HERE, "").put("poisson", Tree.map(HERE, "").put("rate", "10/h", HERE).build()).build())
        .put("count", Tree.integer(HERE, "", 200))
        .put("runtime", Tree.map(HERE, "").put("lognormal", Tree.map(HERE, "").put("median", "30m", HERE)
            .put("p99", "4h", HERE).build()).build());
    MapNode built = c.build();
    comments.put(built, List.of("from " + t.source().location() + " (" + t.kind() + " " + t.name() + ": "
        + podSummary(t.template()) + "); arrival, count and runtime are placeholders: edit"));
    classes.add(built);
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

  // ---- output -------------------------------------------------------------------------------------------

  private String write(String name) {
    header.add("");
    header.add("Each section says where it came from. Traces and node lists stay where they are: paths are relative");
    header.add("to this file. Check it with `batchsim validate`, run it with `batchsim run`.");
    List<ScenarioWriter.Section> sections = new ArrayList<>();
    sections.add(new ScenarioWriter.Section("name", Tree.string(HERE, "", name), List.of()));
    sections.add(new ScenarioWriter.Section("seed", Tree.integer(HERE, "", 1), List.of()));
    Tree.Map_ cluster = Tree.map(HERE, "");
    if (!pools.isEmpty()) {
      cluster.put("nodePools", Tree.list(HERE, "", pools));
    }
    if (!nodesFrom.isEmpty()) {
      cluster.put("nodesFrom", Tree.list(HERE, "", nodesFrom));
    }
    sections.add(new ScenarioWriter.Section("cluster", cluster.build(), clusterSources));
    if (!topologies.isEmpty()) {
      sections.add(new ScenarioWriter.Section("topologies", Tree.list(HERE, "", topologies), queueSources));
    }
    sections.add(section("resourceFlavors", flavors, topologies.isEmpty() ? queueSources : List.of()));
    sections.add(section("cohorts", cohorts, List.of()));
    sections.add(section("clusterQueues", clusterQueues, List.of()));
    sections.add(section("localQueues", localQueues, List.of()));
    sections.add(section("priorityClasses", priorityClasses, List.of()));
    Tree.Map_ w = Tree.map(HERE, "");
    if (!classes.isEmpty()) {
      w.put("classes", Tree.list(HERE, "", classes));
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
    return ScenarioWriter.write(header, sections, comments);
  }

  private static ScenarioWriter.Section section(String key, List<Node> items, List<String> comment) {
    return new ScenarioWriter.Section(key, items.isEmpty() ? null : Tree.list(HERE, "", items), comment);
  }

  private static Node group(List<String> covered, String flavor, List<Node> quotas) {
    List<Node> cov = new ArrayList<>();
    covered.forEach(r -> cov.add(Tree.string(HERE, "", r)));
    return Tree.map(HERE, "").put("coveredResources", Tree.list(HERE, "", cov))
        .put("flavors", list(Tree.map(HERE, "").put("name", flavor, HERE).put("resources", Tree.list(HERE, "", quotas))
            .build())).build();
  }

  private static Node list(Node item) {
    return Tree.list(HERE, "", List.of(item));
  }

  /** {@code p} relative to the output file's directory. */
  private String rel(Path p) {
    Path abs = p.toAbsolutePath().normalize();
    try {
      return outDir.relativize(abs).toString();
    } catch (IllegalArgumentException e) {
      return abs.toString();
    }
  }

  private static Location location(TraceFormatException e) {
    return new Location(e.file(), e.line(), e.column());
  }

  private static String baseName(Path p) {
    String s = p.getFileName().toString();
    int dot = s.lastIndexOf('.');
    return dot > 0 ? s.substring(0, dot) : s;
  }

  /** Lower-case letters, digits and dashes. */
  static String dns(String s) {
    String t = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("-+", "-")
        .replaceAll("^-|-$", "");
    return t.isEmpty() ? "x" : t;
  }
}
