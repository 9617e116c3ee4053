package batchsim.scenarios.cli;

import batchsim.core.metrics.RunResult;
import batchsim.core.world.InvariantViolation;
import batchsim.core.world.TimelineError;
import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.ScenarioLoader;
import batchsim.scenarios.Story;
import batchsim.scenarios.compare.RunResultView;
import batchsim.scenarios.expect.JUnitXml;
import batchsim.scenarios.expect.Outcome;
import batchsim.scenarios.expect.StatusWatch;
import batchsim.scenarios.overrides.Composition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim stories DIR...}: runs every scenario with a {@code story:} block below the directories
 * (transcribed Kueue integration tests) under the invariant checker, one line each — PASS, FAIL with the
 * expectations that failed, SKIP with the missing capability — and closes with
 * {@code N passed, M failed, K skipped}. A story marked {@code fails:} is a known engine defect: it still
 * counts as failed, but only an unexpected failure (or a marked story that now passes) makes the exit code 1.
 * A story that cannot be loaded is exit 2.
 */
@Command(name = "stories", header = "Run transcribed Kueue integration-test stories.", mixinStandardHelpOptions = true)
final class StoriesCommand extends ScenarioCommand {
  @Parameters(arity = "1..*", paramLabel = "DIR", description = "Directories (searched recursively) or story files.")
  List<Path> roots;

  @Option(names = "--junit", paramLabel = "FILE", description = "Write one test case per expectation as JUnit XML.")
  Path junit;

  @Option(names = {"-q", "--quiet"}, description = "Print only failures and the closing line.")
  boolean quiet;

  @Override
  int execute() throws Exception {
    Verdicts.checkJUnit(junit);
    List<Path> files = new ArrayList<>();
    for (Path r : roots) {
      files.addAll(yamlFiles(r));
    }
    int passed = 0;
    int failed = 0;
    int skipped = 0;
    int unexpected = 0;
    List<JUnitXml.Suite> suites = new ArrayList<>();
    for (Path f : files) {
      Composition c = Inputs.compose(f, List.of());
      Story story = ScenarioLoader.story(c);
      if (story == null) {
        continue; // a scenario that is not a story (a shared include, say)
      }
      String cite = story.source() + ": " + story.it();
      if (story.skipped()) {
        skipped++;
        line("SKIP " + f + " (" + story.skip() + ") [" + cite + "]", false);
        continue;
      }
      List<String> why = new ArrayList<>();
      long start = System.nanoTime(); // for JUnit XML's time only
      List<Outcome> outcomes = run(ScenarioLoader.bind(c, List.of(), null), why);
      suites.add(new JUnitXml.Suite(f.toString(), f.toString(), outcomes, System.nanoTime() - start));
      if (why.isEmpty()) {
        passed++;
        if (story.fails() != null) {
          unexpected++;
          line("PASS " + f + " — marked fails: \"" + story.fails() + "\"; remove the mark", true);
        } else {
          line("PASS " + f, false);
        }
        continue;
      }
      failed++;
      if (story.fails() == null) {
        unexpected++;
      }
      line("FAIL " + f + (story.fails() == null ? "" : " (known: " + story.fails() + ")") + " [" + cite + "]",
          story.fails() == null);
      for (String w : why) {
        line("     " + w, story.fails() == null);
      }
    }
    out().println(passed + " passed, " + failed + " failed, " + skipped + " skipped");
    if (junit != null) {
      Verdicts.writeJUnit(junit, suites);
    }
    return unexpected > 0 ? Verdicts.FAILED : OK;
  }

  /** Runs a story checked; {@code why} gets what failed (expectations, an invariant, a refused action). */
  private static List<Outcome> run(LoadedScenario s, List<String> why) throws IOException, UserError {
    StatusWatch watch = s.expectations().newStatusWatch();
    RunResult result;
    try {
      result = RunCommand.simulate(s, true, null, watch, null);
    } catch (InvariantViolation | TimelineError e) {
      why.add(e.getMessage());
      return s.expectations().afterViolation(e.getMessage());
    }
    List<Outcome> outcomes = s.expectations().evaluate(RunResultView.of(result), true, watch);
    if (outcomes.isEmpty()) {
      why.add("the story has no expectations");
    }
    for (Outcome o : outcomes) {
      if (o.failed()) {
        why.add(o.name() + ": " + o.detail());
      }
    }
    return outcomes;
  }

  private void line(String text, boolean failure) {
    if (!quiet || failure) {
      out().println(text);
    }
  }

  private static List<Path> yamlFiles(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return List.of(root);
    }
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.toString().endsWith(".yaml") && Files.isRegularFile(p)).sorted().toList();
    }
  }
}
