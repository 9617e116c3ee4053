package batchsim.scenarios.cli;

import batchsim.scenarios.RunLimits;
import batchsim.scenarios.ScenarioException;
import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.expect.ExpressionException;
import batchsim.scenarios.expect.Metric;
import batchsim.scenarios.overrides.Composition;
import batchsim.scenarios.sweep.SweepPlan;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What decides a sweep's cells and what is kept of them: the scenario as named, its {@code --set}s,
 * {@code --replicas}, {@code --metric}s, {@code --check} and {@code --limits}. The pods of a sweep on Kubernetes
 * get them as arguments ({@link #args}); each pod records them in {@value #FILE} beside the cells it writes, so
 * {@code sweep merge} plans the same sweep again.
 */
record SweepSettings(Path file, List<String> sets, Integer replicas, List<String> metrics, boolean check,
    List<String> limits) {
  /** The record of the settings in a directory of cells run one by one. */
  static final String FILE = "sweep.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  SweepSettings {
    sets = List.copyOf(sets);
    metrics = List.copyOf(metrics);
    limits = List.copyOf(limits);
  }

  /** The planned sweep, the metrics it keeps, and the composed scenario (which files it read). */
  record Planned(SweepPlan plan, List<Metric> metrics, Composition composition) {
    String name() {
      return plan.base().spec().name();
    }
  }

  /** Composes the scenario and plans its cells, as every form of {@code sweep} does. */
  Planned plan() throws ScenarioException, ScenarioCommand.UserError {
    return plan(false);
  }

  /**
   * {@link #plan()}; with {@code estimateOnly} (emitting manifests) the heap is estimated but not checked against
   * this JVM: the cells run in pods sized from the estimate, so this machine's heap says nothing about them.
   */
  Planned plan(boolean estimateOnly) throws ScenarioException, ScenarioCommand.UserError {
    if (replicas != null && (replicas < 1 || replicas > 10_000)) {
      throw new ScenarioCommand.UserError("--replicas must be from 1 to 10000");
    }
    RunLimits runLimits;
    try {
      runLimits = RunLimits.parse(limits);
    } catch (IllegalArgumentException e) {
      throw new ScenarioCommand.UserError(e.getMessage());
    }
    if (estimateOnly) {
      runLimits = new RunLimits(runLimits.nodes(), runLimits.events(), runLimits.samples(), runLimits.workloads(),
          Integer.MAX_VALUE); // above 100%: Budget skips the memory check
    }
    Composition composition = Inputs.compose(file, sets);
    SweepPlan plan = SweepPlan.of(composition, replicas, runLimits);
    if (plan.cells().isEmpty()) {
      throw new ScenarioCommand.UserError(file + ": every combination of the matrix is excluded; nothing to run");
    }
    return new Planned(plan, metrics(plan), composition);
  }

  /** The metrics given with --metric, or the default set for this scenario. */
  private List<Metric> metrics(SweepPlan plan) throws ScenarioCommand.UserError {
    List<String> texts = new ArrayList<>(metrics);
    if (texts.isEmpty()) {
      texts.add("p50(wait)");
      texts.add("p95(wait)");
      plan.base().spec().clusterQueues().forEach(cq -> texts.add("p95(wait{queue=" + cq.name() + "})"));
      List<String> resources = plan.base().spec().resources().names();
      String gpu = resources.stream().filter(r -> r.endsWith("/gpu")).findFirst().orElse("cpu");
      texts.add("utilization(" + gpu + ")");
      texts.add("count(preemptions)");
    }
    List<Metric> out = new ArrayList<>();
    for (String t : texts) {
      try {
        Metric m = Metric.parse(t);
        if (!ResultView.OVERALL.equals(m.queue()) && plan.base().spec().clusterQueues().stream()
            .noneMatch(cq -> cq.name().equals(m.queue()))) {
          throw new ScenarioCommand.UserError("--metric " + t + ": unknown ClusterQueue '" + m.queue() + "'");
        }
        out.add(m);
      } catch (ExpressionException e) {
        throw new ScenarioCommand.UserError("--metric " + t + ": " + e.getMessage() + " (at character "
            + (e.offset() + 1) + ")");
      }
    }
    return out;
  }

  /** The arguments of {@code batchsim sweep} that give these settings: the scenario, then its options. */
  List<String> args() {
    return args(file.toString().replace(java.io.File.separatorChar, '/'));
  }

  /** {@link #args()} with the scenario named {@code scenario} (its path in a pod). */
  List<String> args(String scenario) {
    List<String> out = new ArrayList<>();
    out.add(scenario);
    sets.forEach(s -> out.addAll(List.of("--set", s)));
    if (replicas != null) {
      out.addAll(List.of("--replicas", replicas.toString()));
    }
    metrics.forEach(m -> out.addAll(List.of("--metric", m)));
    if (check) {
      out.add("--check");
    }
    limits.forEach(l -> out.addAll(List.of("--limits", l)));
    return out;
  }

  /** Writes {@value #FILE} into {@code dir} whole (pods of one sweep write the same bytes at once). */
  void write(Path dir) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    n.put("scenario", file.toString().replace(java.io.File.separatorChar, '/'));
    sets.forEach(n.putArray("set")::add);
    if (replicas != null) {
      n.put("replicas", replicas);
    }
    metrics.forEach(n.putArray("metric")::add);
    n.put("check", check);
    limits.forEach(n.putArray("limits")::add);
    Inputs.writeAtomically(dir.resolve(FILE), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n) + "\n");
  }

  /** The settings recorded in {@code dir}, or null when it has no {@value #FILE}. */
  static SweepSettings read(Path dir) throws ScenarioCommand.UserError {
    Path f = dir.resolve(FILE);
    if (!Files.isRegularFile(f)) {
      return null;
    }
    try {
      JsonNode n = JSON.readTree(f.toFile());
      if (!n.path("scenario").isTextual()) {
        throw new IOException("no scenario named");
      }
      return new SweepSettings(Path.of(n.path("scenario").asText()), texts(n.path("set")),
          n.path("replicas").isInt() ? n.path("replicas").asInt() : null, texts(n.path("metric")),
          n.path("check").asBoolean(), texts(n.path("limits")));
    } catch (IOException | RuntimeException e) {
      throw new ScenarioCommand.UserError(f + ": not a sweep record written by 'batchsim sweep --cell' ("
          + e.getMessage() + ")");
    }
  }

  private static List<String> texts(JsonNode list) {
    List<String> out = new ArrayList<>();
    list.forEach(v -> out.add(v.asText()));
    return out;
  }
}
