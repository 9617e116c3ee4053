package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code batchsim stories}: the runner's verdicts (the project's own stories: ProjectStoriesTest). */
class StoriesCommandTest {
  /** A story-shaped scenario of our own (TimelineStoriesTest) that passes as it is. */
  private static final String STORY = "src/test/resources/timeline/deleted-queue-drains.yaml";

  @TempDir
  Path tmp;

  private Path story(String name, String block, String replace, String with) throws Exception {
    Path f = tmp.resolve(name);
    Files.writeString(f, block + "\n" + Files.readString(Path.of(STORY)).replace(replace, with));
    return f;
  }

  @Test
  void verdicts_passFailSkip_andOnlyUnmarkedFailuresFail() throws Exception {
    story("a-pass.yaml", "story: {source: t_test.go, it: passes}", "", "");
    story("b-skip.yaml", "story: {source: t_test.go, it: skipped, skip: \"pod integrations\"}", "", "");
    story("c-known.yaml", "story: {source: t_test.go, it: known, fails: \"deletes late\"}",
        "at: 30m, deleteClusterQueue", "at: 50m, deleteClusterQueue");
    Cli.Result r = Cli.run("stories", tmp.toString());
    assertEquals(0, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("SKIP " + tmp.resolve("b-skip.yaml") + " (pod integrations) [t_test.go: skipped]"),
        r.out());
    assertTrue(r.out().contains("FAIL " + tmp.resolve("c-known.yaml") + " (known: deletes late)"), r.out());
    assertTrue(r.out().endsWith("1 passed, 1 failed, 1 skipped\n"), r.out());

    story("d-new.yaml", "story: {source: t_test.go, it: regressed}", "at: 30m, deleteClusterQueue",
        "at: 50m, deleteClusterQueue");
    Cli.Result again = Cli.run("stories", tmp.toString());
    assertEquals(1, again.exit(), again.out());
    assertTrue(again.out().contains("1 passed, 2 failed, 1 skipped"), again.out());
  }

  @Test
  void aStoryWithoutSourceIsRefusedWithItsLocation() throws Exception {
    Path f = story("bad.yaml", "story: {it: nothing}", "", "");
    Cli.Result r = Cli.run("stories", f.toString());
    assertEquals(2, r.exit(), r.out() + r.err());
    assertTrue(r.err().contains("bad.yaml:1:8: story: missing required field 'source'"), r.err());
  }
}
