package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stories that change the cluster mid-run (src/test/resources/timeline): each ends as Kueue would, asserted
 * with {@code at(...)} expectations under the invariant checker.
 */
class TimelineStoriesTest {
  static final Path DIR = Path.of("src/test/resources/timeline");

  @TempDir
  Path tmp;

  static List<Path> stories() throws IOException {
    try (Stream<Path> s = Files.list(DIR)) {
      return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  @ParameterizedTest
  @MethodSource("stories")
  void story_endsAsKueueSays(Path story) {
    Cli.Result r = Cli.run("check", story.toString());
    assertEquals(0, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("  PASS "), r.out());
    assertFalse(r.out().contains("FAIL"), r.out());
  }

  @Test
  void story_failsWhenTheActionComesLater() {
    // The same story with the deletion moved past the first assertion: the expectation catches it.
    Cli.Result r = Cli.run("check", DIR.resolve("deleted-queue-drains.yaml").toString(), "--set", "events[0].at=50m");
    assertEquals(1, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("FAIL at(40m, clusterQueue(team-b).conditions[Active].reason)"), r.out());
  }

  @Test
  void anActionOnAQueueGoneAtItsTime_stopsTheRunWithItsLocation_andWritesNothing() throws IOException {
    Path scenario = tmp.resolve("again.yaml");
    String yaml = Files.readString(DIR.resolve("deleted-queue-drains.yaml"))
        .replace("  - {at: 30m, deleteClusterQueue: {name: team-b}}",
            "  - {at: 30m, every: 3h, deleteClusterQueue: {name: team-b}}");
    Files.writeString(scenario, yaml);
    Path out = tmp.resolve("out");
    Cli.Result r = Cli.run("run", scenario.toString(), "--out", out.toString(), "--quiet");
    assertEquals(2, r.exit(), r.err());
    // team-b is gone after its last workload ended at 2h: the second delete (3h30m) names nothing
    int line = yaml.lines().toList().indexOf("  - {at: 30m, every: 3h, deleteClusterQueue: {name: team-b}}") + 1;
    assertTrue(r.err().startsWith(scenario + ":" + line + ":5: events[0]: at 3h30m: ClusterQueue team-b doesn't exist"),
        r.err());
    assertFalse(Files.exists(out));
  }
}
