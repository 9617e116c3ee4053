package batchsim.scenarios;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.volcano.VolcanoSetup;
import batchsim.scenarios.expect.Expectations;
import batchsim.scenarios.overrides.Assignment;
import batchsim.scenarios.overrides.Composer;
import batchsim.scenarios.overrides.Composition;
import batchsim.scenarios.overrides.Matrix;
import batchsim.scenarios.overrides.Overrides;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads scenario files: YAML → located tree (includes merged, {@code --set} and sweep-cell overrides
 * applied) → {@link Spec} → cross-checks → {@link SimulationSpec}, plus the scenario's expectations.
 * Every problem in the file is collected before anything is thrown, so one run of {@code batchsim validate}
 * shows them all, each as {@code file:line:col: path: message}.
 */
public final class ScenarioLoader {
  private ScenarioLoader() {}

  /**
   * Loads and validates {@code file}; problem locations name the file as given.
   *
   * @throws IOException when the file cannot be read
   * @throws ScenarioException with every problem found, sorted by position
   */
  public static LoadedScenario load(Path file) throws IOException, ScenarioException {
    return load(file, List.of());
  }

  /**
   * Loads {@code file} with {@code --set} overrides ({@code path=value}), applied in order after the
   * file's includes were merged; a problem with an override is reported as {@code --set path=value: ...}.
   */
  public static LoadedScenario load(Path file, List<String> sets) throws IOException, ScenarioException {
    return load(file, sets, RunLimits.DEFAULTS);
  }

  /** {@link #load(Path, List)} within {@code limits} (the CLI's {@code --limits}). */
  public static LoadedScenario load(Path file, List<String> sets, RunLimits limits)
      throws IOException, ScenarioException {
    return bind(compose(file, sets), List.of(), null, limits);
  }

  /** Loads a scenario from memory; {@code fileName} is used in problem locations. */
  public static LoadedScenario parse(String fileName, String yaml) throws ScenarioException {
    return parse(fileName, yaml.getBytes(StandardCharsets.UTF_8));
  }

  /** Loads a scenario from the bytes of a file named {@code fileName} (includes are relative to it). */
  public static LoadedScenario parse(String fileName, byte[] bytes) throws ScenarioException {
    return bind(compose(fileName, bytes, List.of()), List.of(), null);
  }

  /**
   * The tree of {@code file} with its includes merged and {@code sets} applied, not yet bound: a sweep
   * binds it once per cell with {@link #bind}.
   */
  public static Composition compose(Path file, List<String> sets) throws IOException, ScenarioException {
    return compose(file.toString(), RegularFiles.readAllBytes(file), sets);
  }

  private static Composition compose(String fileName, byte[] bytes, List<String> sets) throws ScenarioException {
    Problems problems = new Problems();
    Composition c = Composer.compose(fileName, bytes, sets, ScenarioLoader::tree, problems);
    problems.throwIfAny();
    if (c == null) {
      throw new IllegalStateException("YAML reader returned no document and no problem");
    }
    return c;
  }

  /**
   * Binds and validates a composed scenario with {@code overrides} (a sweep cell's) put on top.
   * {@code variant} names the cell and is folded into the scenario hash; it is null for the scenario
   * itself, whose matrix is then checked (its shape, and that every level's paths exist).
   */
  public static LoadedScenario bind(Composition c, List<Assignment> overrides, String variant)
      throws ScenarioException {
    return bind(c, overrides, variant, RunLimits.DEFAULTS);
  }

  /** {@code snapshotTime: 2026-11-26T09:30:00Z}: the wall-clock time of t = 0 (an imported live cluster), or null. */
  private static java.time.Instant snapshotTime(Node root, Problems problems) {
    Node n = root instanceof batchsim.scenarios.yaml.MapNode m ? m.get("snapshotTime") : null;
    if (n == null) {
      return null;
    }
    String text = Values.string(n, problems);
    try {
      return text == null ? null : java.time.Instant.parse(text);
    } catch (java.time.format.DateTimeParseException e) {
      problems.at(n, "expected an RFC 3339 time such as 2026-11-26T09:30:00Z, got '" + text + "'");
      return null;
    }
  }

  /** {@link #bind(Composition, List, String)}, refusing what exceeds {@code limits} before any work ({@link Budget}). */
  public static LoadedScenario bind(Composition c, List<Assignment> overrides, String variant, RunLimits limits)
      throws ScenarioException {
    Problems problems = new Problems();
    Node root = Overrides.apply(c.root(), overrides, problems);
    Spec.Scenario scenario = ScenarioBinder.bind(root, problems);
    ScenarioValidator.validate(scenario, problems);
    TimelineBinder.Timeline timeline = TimelineBinder.bind(root, scenario, problems);
    ProvisioningBinder.Provisioning provisioning = ProvisioningBinder.bind(root, scenario, problems);
    VolcanoSetup volcano = VolcanoBinder.bind(root, scenario, problems); // null: the scenario runs under Kueue
    Expectations expectations = Expectations.parse(root, problems);
    Story.read(root, problems); // checked here; the stories runner reads it with story()
    if (variant == null) {
      for (List<Assignment> level : Matrix.parse(root, problems).levelAssignments()) {
        Overrides.apply(root, level, problems);
      }
    }
    problems.throwIfAny();
    long heap = Budget.check(root, scenario, timeline.events(), provisioning.autoscaling(), limits, problems);
    problems.throwIfAny();
    SimulationSpec spec = MultiKueueBinder.bind(root,
        provisioning.applyTo(timeline.applyTo(ModelBuilder.build(scenario))), volcano != null, problems);
    expectations.validate(spec.clusterQueues().stream().map(ClusterQueueSpec::name).toList(),
        spec.resources().names(), spec.flavors().stream().map(ResourceFlavorSpec::name).toList(), problems);
    expectations.validateStatusPaths(spec.clusterQueues().stream().map(ClusterQueueSpec::name).toList(),
        spec.localQueues().stream().map(LocalQueueSpec::name).toList(), cohortNames(spec),
        spec.resources().names(), spec.flavors().stream().map(ResourceFlavorSpec::name).toList(), problems);
    if (volcano != null) {
      expectations.refuseStatusPaths("at(...) reads Kueue's status record; this scenario runs under Volcano", problems);
      ElasticBinder.refuseUnderVolcano(scenario, problems);
      scenario.listedWorkloads().stream().filter(w -> w.reservation() != null || w.eviction() != null)
          .forEach(w -> problems.at(w.name(), (w.reservation() != null ? "quotaReserved" : "evicted")
              + " is Kueue's live state (an imported Workload); this scenario runs under Volcano"));
    }
    java.time.Instant snapshot = snapshotTime(root, problems);
    problems.throwIfAny();
    String sha = variant == null || variant.isEmpty() ? c.sha256()
        : sha256((c.sha256() + "\n" + variant).getBytes(StandardCharsets.UTF_8));
    return new LoadedScenario(c.file(), sha, spec, expectations, volcano, snapshot, c.sets(),
        InputFiles.provenance(c, problems.read()), heap);
  }

  /** The composed scenario's {@code story:} block, or null; a bad block is a ScenarioException. */
  public static Story story(Composition c) throws ScenarioException {
    Problems problems = new Problems();
    Story s = Story.read(c.root(), problems);
    problems.throwIfAny();
    return s;
  }

  /** Declared cohorts and those ClusterQueues name without declaring them. */
  private static List<String> cohortNames(SimulationSpec spec) {
    java.util.Set<String> out = new java.util.LinkedHashSet<>();
    spec.cohorts().forEach(c -> out.add(c.name()));
    spec.clusterQueues().forEach(q -> {
      if (q.cohort() != null) {
        out.add(q.cohort());
      }
    });
    return List.copyOf(out);
  }

  /** One file's tree, or null after reporting why there is none. */
  private static Node tree(String fileName, byte[] bytes, IssueSink sink) {
    String text = decode(fileName, bytes, sink);
    return text == null ? null : YamlTreeReader.read(fileName, text, sink);
  }

  private static String decode(String fileName, byte[] bytes, IssueSink problems) {
    try {
      String text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
      return text.startsWith("\uFEFF") ? text.substring(1) : text;
    } catch (CharacterCodingException e) {
      problems.report(new Location(fileName, 1, 1), "", "the file is not valid UTF-8");
      return null;
    }
  }

  /** Lowercase hex SHA-256 of {@code bytes}. */
  public static String sha256(byte[] bytes) {
    return RegularFiles.sha256(bytes);
  }
}
