package batchsim.scenarios.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.sim.Simulation;
import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.ScenarioLoader;
import batchsim.scenarios.cli.BatchsimCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code batchsim import}: the written scenario loads, runs, and says where each part came from. */
class ScenarioImportTest {
  static final Path IMPORTS = Path.of("src/test/resources/imports");
  static final Path TRACES = Path.of("src/test/resources/traces");

  @TempDir
  Path tmp;

  LoadedScenario imported(List<Path> inputs, ScenarioImport.Options options) throws Exception {
    Path out = tmp.resolve("sub/imported.yaml");
    ScenarioImport.Result r = ScenarioImport.run(inputs, out, options);
    assertEquals(List.of(), r.errors());
    return ScenarioLoader.parse(out.toString(), r.yaml());
  }

  @Test
  void clusterExport_nodesAndJob_becomeALoadableScenario() throws Exception {
    Path out = tmp.resolve("cluster.yaml");
    ScenarioImport.Result r = ScenarioImport.run(List.of(IMPORTS.resolve("kueue-export.yaml"),
        IMPORTS.resolve("nodes.yaml"), IMPORTS.resolve("job.yaml")), out, ScenarioImport.Options.DEFAULT);
    assertEquals(List.of(), r.errors());
    String yaml = r.yaml();
    assertTrue(yaml.contains("#   " + rel(out, IMPORTS.resolve("kueue-export.yaml")) + ": 3 ResourceFlavors, 1 Topology, "
        + "1 Cohort, 2 ClusterQueues, 2 LocalQueues, 2 WorkloadPriorityClasses"), yaml);
    assertTrue(yaml.contains("# from " + IMPORTS.resolve("kueue-export.yaml") + ":97:3\n- name: team-a"),
        "entries name their source");
    assertTrue(yaml.contains("cohortName: org"), yaml);
    assertTrue(yaml.contains("manifest: " + rel(out, IMPORTS.resolve("job.yaml"))), yaml);
    assertTrue(r.warnings().stream().anyMatch(w -> w.contains("spec.stopPolicy is not modelled")), r.warnings().toString());
    assertTrue(r.warnings().stream().anyMatch(w -> w.contains("Namespace") || w.contains("Node cpu-c is not Ready: imported as n2-standard-8-2-0")));

    LoadedScenario s = ScenarioLoader.parse(out.toString(), yaml);
    assertEquals(List.of("n2-standard-8", "a2-highgpu-8g", "n2-standard-8-2"),
        s.spec().nodePools().stream().map(NodePoolSpec::name).toList(), "the NotReady and cordoned nodes lack node-type");
    assertEquals(List.of("team-a", "team-b"), s.spec().clusterQueues().stream().map(ClusterQueueSpec::name).toList());
    assertEquals("org", s.spec().clusterQueues().get(1).cohort());
    assertEquals(1, s.spec().workloadSources().size(), "the Job as a workload class");
  }

  @Test
  void multiDocumentSetup_withUnreadKinds() throws Exception {
    ScenarioImport.Result r = ScenarioImport.run(List.of(IMPORTS.resolve("kueue-setup.yaml")), tmp.resolve("s.yaml"),
        ScenarioImport.Options.DEFAULT);
    assertEquals(List.of("ignored 1 object that is not Kueue's business: 1 Namespace"), r.notes());
    assertTrue(r.yaml().contains("# ignored 1 object that is not Kueue's business: 1 Namespace\n"), r.yaml());
    assertTrue(r.warnings().stream().noneMatch(w -> w.contains("Namespace")), r.warnings().toString());
    assertTrue(r.yaml().contains("coveredResources: [cpu_credits]"), r.yaml());
  }

  @Test
  void traces_getQueuesQuotasAndAClusterSizedForThem() throws Exception {
    LoadedScenario swf = imported(List.of(TRACES.resolve("small.swf")), ScenarioImport.Options.DEFAULT);
    assertEquals(8, swf.spec().nodePools().get(0).count(), "the SWF header's MaxProcs");
    RunResult r = new Simulation(swf.spec()).checked(true).run();
    assertEquals(5, r.overall().finished());

    LoadedScenario philly = imported(List.of(TRACES.resolve("philly-small.csv")), ScenarioImport.Options.DEFAULT);
    assertEquals(List.of("vc-6214e9", "vc-11cb48", "vc-b436b2", "vc-795a4c"),
        philly.spec().clusterQueues().stream().map(ClusterQueueSpec::name).toList(), "one per VC, most jobs first");
    assertEquals(6, new Simulation(philly.spec()).checked(true).run().overall().finished());

    LoadedScenario alibaba = imported(List.of(TRACES.resolve("alibaba-pods.csv"), TRACES.resolve("alibaba-nodes.csv")),
        ScenarioImport.Options.DEFAULT);
    assertEquals(3, alibaba.spec().nodePools().size(), "the trace's nodes, via nodesFrom");
    assertEquals(5, new Simulation(alibaba.spec()).checked(true).run().overall().arrived());
  }

  @Test
  void gzipTraces_importAsTheirPlainText() throws Exception {
    LoadedScenario gz = imported(List.of(TRACES.resolve("small.swf.gz")), ScenarioImport.Options.DEFAULT);
    assertEquals(8, gz.spec().nodePools().get(0).count(), "the SWF header's MaxProcs, read through gzip");
    assertEquals(5, new Simulation(gz.spec()).checked(true).run().overall().finished());
    LoadedScenario philly = imported(List.of(TRACES.resolve("philly-small.csv.gz")), ScenarioImport.Options.DEFAULT);
    assertEquals(4, philly.spec().clusterQueues().size(), "told a Philly table by its decompressed header");
  }

  @Test
  void cli_damagedGzip_isOneLocatedErrorAndExit2_nothingWritten() throws Exception {
    Path out = tmp.resolve("damaged.yaml");
    StringWriter err = new StringWriter();
    assertEquals(2, cli(err, "import", TRACES.resolve("damaged.swf.gz").toString(), "-o", out.toString()));
    assertTrue(err.toString().contains(TRACES.resolve("damaged.swf.gz") + ":1:1: not a valid gzip stream at byte "),
        err.toString());
    assertFalse(Files.exists(out));
  }

  @Test
  void swfByUser_manyValues_shareAnOtherQueue() throws Exception {
    LoadedScenario s = imported(List.of(TRACES.resolve("small.swf")),
        new ScenarioImport.Options("by-user", "user", 2, 8, 2));
    assertEquals(List.of("user-12", "user-13", "small-other"),
        s.spec().clusterQueues().stream().map(ClusterQueueSpec::name).toList());
    assertEquals(5, new Simulation(s.spec()).checked(true).run().overall().finished());
  }

  @Test
  void generatorFile_becomesKueuesPerformanceTestShape() throws Exception {
    LoadedScenario s = imported(List.of(IMPORTS.resolve("generator.yaml")), ScenarioImport.Options.DEFAULT);
    assertEquals(4, s.spec().clusterQueues().size());
    assertEquals(28, new Simulation(s.spec()).checked(true).run().overall().finished());

    LoadedScenario tas = imported(List.of(IMPORTS.resolve("generator-tas.yaml")), ScenarioImport.Options.DEFAULT);
    assertEquals(List.of("default-topology"), tas.spec().topologies().stream().map(x -> x.name()).toList());
    assertEquals(8, tas.spec().nodePools().stream().mapToInt(NodePoolSpec::count).sum(), "1 x 2 x 4 nodes");
    assertEquals("default-topology", tas.spec().flavors().get(0).topologyName());
    RunResult r = new Simulation(tas.spec()).checked(true).run();
    assertEquals(2 * (4 + 2 + 2), r.overall().finished());
  }

  @Test
  void cli_writesTheFile_warnsOnStderr_checksTheResult() throws Exception {
    Path out = tmp.resolve("cli.yaml");
    StringWriter err = new StringWriter();
    int code = cli(err, "import", IMPORTS.resolve("kueue-export.yaml").toString(), IMPORTS.resolve("nodes.yaml").toString(),
        "-o", out.toString());
    assertEquals(0, code, err.toString());
    assertTrue(Files.readString(out).startsWith("# kueue-export: imported by `batchsim import` from:"));
    assertTrue(err.toString().contains("warning: " + IMPORTS.resolve("kueue-export.yaml") + ":148:17: ClusterQueue "
        + "team-a: spec.stopPolicy is not modelled by batchsim; dropped (and 1 more like it)"), err.toString());
    assertTrue(err.toString().contains("batchsim: the scenario loads cleanly"), err.toString());
    assertEquals(2, cli(new StringWriter(), "import", IMPORTS.resolve("nodes.yaml").toString(), "-o", out.toString()),
        "an existing file is not overwritten without --force");
    StringWriter missing = new StringWriter();
    assertEquals(2, cli(missing, "import", "no-such-file.csv"));
    assertTrue(missing.toString().contains("no-such-file.csv: no such file"), missing.toString());
  }

  @Test
  void cli_validate_missingTrace_isOneLineAndExit2() throws Exception {
    Path scenario = tmp.resolve("s.yaml");
    Files.writeString(scenario, """
        name: s
        cluster: {nodePools: [{name: n, count: 1, allocatable: {cpu: 1}}]}
        resourceFlavors: [{name: f}]
        clusterQueues: [{name: cq, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: 1}]}]}]}]
        localQueues: [{name: q, clusterQueue: cq}]
        workloads:
          traces: [{format: swf, path: missing.swf, queue: q}]
        """);
    StringWriter err = new StringWriter();
    assertEquals(2, cli(err, "validate", scenario.toString()));
    assertEquals(scenario + ":7:32: workloads.traces[0].path: no such file: " + tmp.resolve("missing.swf")
        + " (relative paths are relative to the scenario file's directory)", err.toString().strip());
  }

  private static int cli(StringWriter err, String... args) {
    CommandLine cl = new CommandLine(new BatchsimCommand());
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(new StringWriter()));
    return cl.execute(args);
  }

  private static String rel(Path out, Path p) {
    return out.toAbsolutePath().getParent().relativize(p.toAbsolutePath().normalize()).toString();
  }
}
