package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.sim.Runs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every bundled example loads, runs clean with the invariant checker on, and accounts for every arrival. */
class ExamplesTest {
  static Stream<Path> examples() throws IOException {
    Path dir = Path.of("examples");
    try (Stream<Path> s = Files.walk(dir)) {
      // cluster-snapshot/ holds Kubernetes manifests, the input of `batchsim import`, not scenarios
      List<Path> files = s.filter(p -> p.toString().endsWith(".yaml") && !p.startsWith(dir.resolve("cluster-snapshot")))
          .sorted().toList();
      return files.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void example_runsCleanWithInvariantsChecked(Path file) throws Exception {
    String text = Files.readString(file);
    Assumptions.assumeFalse(text.contains("../shared/") && !Files.isDirectory(Path.of("../../shared")),
        "needs ../shared (public traces), which is not present");
    LoadedScenario s = ScenarioLoader.load(file);
    RunResult r = Runs.run(s.spec(), s.volcano(), true);
    var o = r.overall();
    // Every arrival is finished, still pending, holding quota or running at the end.
    assertEquals(o.arrived(), o.finished() + o.pendingAtEnd() + o.admittedAtEnd() + o.runningAtEnd(),
        "arrivals must be accounted for");
    assertTrue(o.arrived() > 0 || !r.serving().isEmpty(), "the example generates workloads");
    for (var d : r.serving()) {
      assertEquals(d.scaleUps(), d.scaleUpsRan(), d.name() + ": every scale-up's pods run");
    }
  }
}
