package batchsim.scenarios.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The manifests of a sweep on Kubernetes: its cells as one Indexed Job queued by Kueue, each pod running
 * {@code batchsim sweep SCENARIO --cell $JOB_COMPLETION_INDEX --out /results/<job>}; the scenario and its includes
 * in a ConfigMap; the files the scenario reads on a data claim; the results on a ReadWriteMany claim; and a Pod
 * that mounts both claims, to copy files in and results out ({@code kubectl cp}).
 *
 * @param namespace the namespace of every object, or null for kubectl's current one
 * @param queue the Kueue LocalQueue (in that namespace) the Job is submitted to
 * @param sweepArgs the arguments of {@code batchsim sweep} that give the sweep (scenario and options), without
 *     {@code --cell} and {@code --out}
 * @param heapBytes the largest cell's heap estimate ({@code --limits}' memory budget)
 * @param memoryPercent the share of the JVM's heap a cell may take ({@code --limits memory=}, 80 by default)
 * @param resultsBytes the size of the results claim ({@code --results-size}, or {@link #resultsBytes(int)})
 */
public record SweepManifests(KubeNames names, String namespace, String queue, int cells, int parallelism,
    String image, List<String> sweepArgs, long heapBytes, int memoryPercent, PodFiles files, long resultsBytes) {
  /** Kueue's label naming the LocalQueue of a job. */
  public static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
  /** Kueue may admit the Job with fewer pods than its parallelism when quota is short (partial admission). */
  public static final String MIN_PARALLELISM = "kueue.x-k8s.io/job-min-parallelism";
  /** Where the results claim is mounted. */
  public static final String RESULTS = "/results";
  /** Where the files Pod mounts the data claim. */
  public static final String DATA = "/data";
  /** The results claim's default room per cell ({@link #resultsBytes(int)}). */
  public static final int CELL_RESULTS_MIB = 16;
  /** A ConfigMap holds at most 1 MiB (keys and values). */
  public static final int CONFIG_MAP_BYTES = 1 << 20;
  /** The JVM in the pod takes this share of the container's memory as heap ({@link #JAVA_OPTS}). */
  static final double HEAP_SHARE = 0.75;
  /** The JVM options of a cell's pod: one thread runs the simulation; the heap follows the memory limit. */
  public static final String JAVA_OPTS = "-XX:+UseSerialGC -XX:MaxRAMPercentage=75 -Xss8m"; // the engine recurses
  static final long MIN_MEMORY = 512L << 20;
  /** Exit codes that mean the same on every retry: bad input (2), a broken invariant (3), a bug (70). */
  static final List<Integer> FINAL_EXITS = List.of(2, 3, 70);

  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final YAMLMapper YAML = YAMLMapper.builder()
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES, YAMLGenerator.Feature.LITERAL_BLOCK_STYLE,
          YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
      .build();

  public SweepManifests {
    sweepArgs = List.copyOf(sweepArgs);
  }

  /**
   * The ConfigMap and the claims, created first.
   *
   * @throws PodFiles.Refused when the scenario and its includes do not fit in a ConfigMap
   */
  public String storage() throws PodFiles.Refused {
    List<ObjectNode> docs = new ArrayList<>();
    docs.add(configMap());
    docs.add(claim(names.results(), resultsBytes));
    if (!files.data().isEmpty()) {
      docs.add(claim(names.data(), dataBytes()));
    }
    return yaml(docs);
  }

  /** The Indexed Job, created once the data claim holds the scenario's files. */
  public String job() {
    return yaml(List.of(jobObject()));
  }

  /** A Pod mounting both claims, to copy traces in and results out. */
  public String filesPod() {
    ObjectNode pod = object("v1", "Pod", names.files());
    ObjectNode spec = pod.putObject("spec");
    spec.put("restartPolicy", "Never");
    ObjectNode c = spec.putArray("containers").addObject();
    c.put("name", "files");
    c.put("image", image);
    c.put("imagePullPolicy", "IfNotPresent");
    c.putArray("command").add("sleep").add("infinity");
    ObjectNode res = c.putObject("resources");
    res.putObject("requests").put("cpu", "10m").put("memory", "64Mi");
    ArrayNode mounts = c.putArray("volumeMounts");
    mounts.addObject().put("name", "results").put("mountPath", RESULTS);
    ArrayNode volumes = spec.putArray("volumes");
    volumes.addObject().put("name", "results").putObject("persistentVolumeClaim").put("claimName", names.results());
    if (!files.data().isEmpty()) {
      mounts.addObject().put("name", "data").put("mountPath", DATA);
      volumes.addObject().put("name", "data").putObject("persistentVolumeClaim").put("claimName", names.data());
    }
    return yaml(List.of(pod));
  }

  /**
   * The memory each cell's pod requests and is limited to: the heap estimate over the share of the limit a cell's
   * heap may take, in steps of 64 MiB, at least 512 MiB.
   */
  public long memoryBytes() {
    double share = HEAP_SHARE * Math.min(memoryPercent, 100) / 100.0;
    long step = 64L << 20;
    long need = (long) Math.min(Math.ceil(heapBytes / share), Long.MAX_VALUE - step);
    return Math.max(MIN_MEMORY, (need + step - 1) / step * step);
  }

  /** The arguments of a cell's pod, after the image's {@code batchsim}. */
  public List<String> podArgs() {
    List<String> args = new ArrayList<>();
    args.add("sweep");
    args.addAll(sweepArgs);
    args.addAll(List.of("--cell", "$(JOB_COMPLETION_INDEX)", "--out", RESULTS + "/" + names.job()));
    return args;
  }

  private ObjectNode configMap() throws PodFiles.Refused {
    ObjectNode cm = object("v1", "ConfigMap", names.scenario());
    ObjectNode data = cm.putObject("data");
    long bytes = 0;
    for (PodFiles.ConfigFile f : files.config()) {
      data.put(f.key(), f.text());
      bytes += f.key().length() + f.text().getBytes(StandardCharsets.UTF_8).length;
    }
    if (bytes > CONFIG_MAP_BYTES) {
      throw new PodFiles.Refused(String.format(Locale.ROOT, "the scenario and its includes take %.2f MiB, more than "
          + "the 1 MiB a ConfigMap holds; move what makes them big (listed workloads, say) into a trace or manifest "
          + "file the scenario names: those go on the data claim (%s), a volume with no such limit", bytes
          / (double) (1 << 20), names.data()));
    }
    return cm;
  }

  private ObjectNode claim(String name, long bytes) {
    ObjectNode pvc = object("v1", "PersistentVolumeClaim", name);
    ObjectNode spec = pvc.putObject("spec");
    spec.putArray("accessModes").add("ReadWriteMany");
    spec.putObject("resources").putObject("requests").put("storage", gibibytes(bytes));
    return pvc;
  }

  /**
   * The default results claim: {@value #CELL_RESULTS_MIB} MiB per cell. A cell writes its reports (a row per
   * workload and per sample, a few hundred bytes each), not its heap: that is under 16 MiB for scenarios of up to
   * some 50,000 workloads; bigger ones give {@code --results-size}.
   */
  public static long resultsBytes(int cells) {
    return cells * ((long) CELL_RESULTS_MIB << 20);
  }

  private long dataBytes() {
    return files.data().stream().mapToLong(PodFiles.DataFile::bytes).sum();
  }

  private ObjectNode jobObject() {
    ObjectNode job = object("batch/v1", "Job", names.job());
    ObjectNode meta = (ObjectNode) job.get("metadata");
    meta.putObject("labels").put(QUEUE_LABEL, queue);
    if (parallelism > 1) { // Kueue's webhook wants the minimum below the parallelism
      meta.putObject("annotations").put(MIN_PARALLELISM, "1");
    }
    ObjectNode spec = job.putObject("spec");
    spec.put("suspend", true); // Kueue unsuspends it once the queue admits it
    spec.put("completionMode", "Indexed");
    spec.put("completions", cells);
    spec.put("parallelism", parallelism);
    spec.put("backoffLimitPerIndex", 2);
    ArrayNode rules = spec.putObject("podFailurePolicy").putArray("rules");
    ObjectNode fail = rules.addObject().put("action", "FailIndex").putObject("onExitCodes");
    fail.put("containerName", "batchsim").put("operator", "In");
    FINAL_EXITS.forEach(fail.putArray("values")::add);
    rules.addObject().put("action", "Ignore").putArray("onPodConditions").addObject().put("type", "DisruptionTarget")
        .put("status", "True");
    ObjectNode pod = spec.putObject("template").putObject("spec");
    pod.put("restartPolicy", "Never");
    ObjectNode c = pod.putArray("containers").addObject();
    c.put("name", "batchsim");
    c.put("image", image);
    c.put("imagePullPolicy", "IfNotPresent");
    c.putArray("command").add("batchsim");
    podArgs().forEach(c.putArray("args")::add);
    c.put("workingDir", files.workingDir());
    c.putArray("env").addObject().put("name", "BATCHSIM_JAVA_OPTS").put("value", JAVA_OPTS);
    String memory = (memoryBytes() >> 20) + "Mi";
    ObjectNode res = c.putObject("resources");
    res.putObject("requests").put("cpu", "1").put("memory", memory);
    res.putObject("limits").put("memory", memory);
    ArrayNode mounts = c.putArray("volumeMounts");
    mounts.addObject().put("name", "results").put("mountPath", RESULTS);
    for (PodFiles.ConfigFile f : files.config()) {
      mounts.addObject().put("name", "scenario").put("mountPath", f.mountPath()).put("subPath", f.path())
          .put("readOnly", true);
    }
    for (PodFiles.DataFile f : files.data()) {
      mounts.addObject().put("name", "data").put("mountPath", f.mountPath()).put("subPath", f.path())
          .put("readOnly", true);
    }
    ArrayNode volumes = pod.putArray("volumes");
    volumes.addObject().put("name", "results").putObject("persistentVolumeClaim").put("claimName", names.results());
    ObjectNode cm = volumes.addObject().put("name", "scenario").putObject("configMap").put("name", names.scenario());
    ArrayNode items = cm.putArray("items");
    files.config().forEach(f -> items.addObject().put("key", f.key()).put("path", f.path()));
    if (!files.data().isEmpty()) {
      volumes.addObject().put("name", "data").putObject("persistentVolumeClaim").put("claimName", names.data())
          .put("readOnly", true);
    }
    return job;
  }

  private ObjectNode object(String apiVersion, String kind, String name) {
    ObjectNode o = F.objectNode();
    o.put("apiVersion", apiVersion);
    o.put("kind", kind);
    ObjectNode meta = o.putObject("metadata");
    meta.put("name", name);
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    return o;
  }

  private static String gibibytes(long bytes) {
    long gib = 1L << 30;
    return Math.max(1, (bytes + gib - 1) / gib) + "Gi";
  }

  private static String yaml(List<ObjectNode> docs) {
    StringBuilder out = new StringBuilder();
    try {
      for (ObjectNode d : docs) {
        out.append(YAML.writeValueAsString(d));
      }
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e); // a tree of strings and numbers always serializes
    }
    return out.toString();
  }
}
