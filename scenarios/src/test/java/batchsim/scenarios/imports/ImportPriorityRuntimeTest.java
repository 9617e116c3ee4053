package batchsim.scenarios.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.sim.Simulation;
import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.ScenarioLoader;
import batchsim.scenarios.cli.BatchsimCommand;
import batchsim.workloads.WorkloadClass;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code batchsim import} end to end: priorities, runtimes and ignored objects, then load and run. */
class ImportPriorityRuntimeTest {
  static final Path DIR = Path.of("src/test/resources/imports/priority");

  @TempDir
  Path tmp;

  List<String> inputs(String... files) {
    List<String> out = new ArrayList<>();
    for (String f : files) {
      out.add(DIR.resolve(f).toString());
    }
    return out;
  }

  @Test
  void cluster_priorities_runtimes_importLoadAndRun() throws Exception {
    Path out = tmp.resolve("research.yaml");
    StringWriter err = new StringWriter();
    List<String> args = new ArrayList<>(List.of("import", "-o", out.toString(), "--queue-runtime",
        "research/batch=uniform:5m:15m"));
    args.addAll(inputs("kueue.yaml", "priorityclasses.yaml", "nodes.yaml", "jobs.yaml"));
    assertEquals(0, cli(err, args.toArray(String[]::new)), err.toString());
    String e = err.toString();
    assertTrue(e.contains("batchsim: ignored 5 objects that are not Kueue's business: 2 Service, 2 ConfigMap, "
        + "1 Secret\n"), e);
    assertTrue(e.contains("warning: " + DIR.resolve("jobs.yaml") + ":729:3: MultiKueueConfig/research-remote "
        + "(kueue.x-k8s.io/v1beta2): batchsim does not read this kind; ignored"), e);
    assertFalse(e.contains("Service/"), "not Kueue's business: counted, not echoed");
    assertTrue(e.contains("batchsim: runtimes: 2 from batchsim.io/runtime annotations, 3 from --queue-runtime "
        + "research/batch=uniform:5m:15m, 3 from --runtime lognormal:30m:4h (placeholder: edit)"), e);
    assertTrue(e.contains("names PriorityClass gold, which the inputs do not have"), e);
    assertTrue(e.contains("batchsim: the scenario loads cleanly"), e);

    String yaml = Files.readString(out);
    String unwrapped = yaml.replaceAll("\n *# ", " "); // comments wrap
    assertTrue(yaml.contains("# ignored 5 objects that are not Kueue's business: 2 Service, 2 ConfigMap, 1 Secret\n"),
        yaml);
    assertTrue(yaml.contains("# runtimes: 2 from batchsim.io/runtime annotations"), yaml);
    assertTrue(unwrapped.contains("listed as high-pod: WorkloadPriorityClass high has value 1000"), yaml);
    assertTrue(yaml.contains("runtime: 45m"), yaml);
    assertTrue(unwrapped.contains("arrival and count are placeholders: edit; runtime: its batchsim.io/runtime "
        + "annotation"), yaml);

    LoadedScenario s = ScenarioLoader.load(out);
    Map<String, Integer> priorities = new LinkedHashMap<>();
    s.spec().workloadSources().forEach(w -> priorities.put(((WorkloadClass) w).name(), ((WorkloadClass) w).priority()));
    assertEquals(Map.of("train-labelled", 1000, "train-pcn", 100000, "train-plain", 100, "train-gold", 0,
        "train-urgent", 0, "train-high-pod", 500, "train-low-pod", 10, "ranks", 100000), priorities);
    RunResult r = new Simulation(s.spec()).checked(true).run();
    assertEquals(8 * 200, r.overall().finished(), "every imported job runs to the end");
  }

  @Test
  void badRuntimeFlags_exit2_namingTheFlag_nothingWritten() throws Exception {
    Path out = tmp.resolve("x.yaml");
    String jobs = DIR.resolve("jobs.yaml").toString();
    StringWriter err = new StringWriter();
    assertEquals(2, cli(err, "import", jobs, "-o", out.toString(), "--runtime", "lognormal:4h"));
    assertEquals("batchsim: --runtime 'lognormal:4h': lognormal needs MEDIAN:P99, e.g. lognormal:30m:4h",
        err.toString().strip());
    err = new StringWriter();
    assertEquals(2, cli(err, "import", jobs, "-o", out.toString(), "--queue-runtime", "research/main=exponential"));
    assertEquals("batchsim: --queue-runtime research/main='exponential': exponential needs MEAN, e.g. exponential:45m",
        err.toString().strip());
    err = new StringWriter();
    assertEquals(2, cli(err, "import", jobs, "-o", out.toString(), "--queue-runtime", "45m"));
    assertEquals("batchsim: --queue-runtime '45m': expected NAMESPACE/LOCALQUEUE=DIST, e.g. "
        + "team-a/main=lognormal:20m:3h", err.toString().strip());
    assertFalse(Files.exists(out));
  }

  @Test
  void badRuntimeAnnotation_isALocatedError_exit2() throws Exception {
    Path job = tmp.resolve("job.yaml");
    Files.writeString(job, Files.readString(DIR.resolve("jobs.yaml")).replace("batchsim.io/runtime: 45m",
        "batchsim.io/runtime: about an hour"));
    Path out = tmp.resolve("x.yaml");
    StringWriter err = new StringWriter();
    assertEquals(2, cli(err, "import", job.toString(), "-o", out.toString()));
    assertTrue(err.toString().contains("error: " + job + ":"), err.toString());
    assertTrue(err.toString().contains(": Job/research/train-pcn: annotation batchsim.io/runtime: 'about an hour' is "
        + "not a duration"), err.toString());
    assertFalse(Files.exists(out));
  }

  private static int cli(StringWriter err, String... args) {
    CommandLine cl = new CommandLine(new BatchsimCommand());
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(new StringWriter()));
    return cl.execute(args);
  }
}
