package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.fail;

import batchsim.scenarios.cli.Cli.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property-based tests through the CLI, with a generator of our own ({@link RandomScenarios},
 * {@link Mutations}): random valid scenarios run under {@code --check} (invariants hold) to the same digest
 * twice; random mutations of them end in exit 0 or 2, never an internal error or a stack trace, and a
 * refused run writes nothing. Seeded: {@code -Dfuzz.seed=S} picks the series, {@code -Dfuzz.cases=N} its
 * length, {@code -Dfuzz.case=I} one case of it; a failure prints the seed, the case and the YAML.
 */
class ScenarioFuzzTest {
  private static final long SEED = Long.getLong("fuzz.seed", 20L);
  private static final int CASES = Integer.getInteger("fuzz.cases", 150);
  private static final Integer ONLY = Integer.getInteger("fuzz.case");
  private static final int MUTANTS_PER_CASE = 5;
  private static final long TIMEOUT_SECONDS = 10;
  private static final Pattern DIGEST = Pattern.compile("\"digest\"\\s*:\\s*\"([0-9a-f]+)\"");
  private static final ExecutorService RUNNER = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "fuzz-case");
    t.setDaemon(true); // a case that hangs fails the test and must not keep the JVM alive
    return t;
  });

  @TempDir
  Path tmp;

  private final List<String> failures = new ArrayList<>();

  @AfterAll
  static void stop() {
    RUNNER.shutdownNow();
  }

  @Test
  void validScenarios_runCheckedAndDeterministically() throws Exception {
    for (int i = 0; i < CASES; i++) {
      if (ONLY != null && ONLY != i) {
        continue;
      }
      long seed = SEED * 1_000_003L + i;
      String yaml = YamlText.of(RandomScenarios.generate(seed));
      Path file = Files.writeString(tmp.resolve("valid-" + i + ".yaml"), yaml);
      Result a = cli(i, yaml, "run", file.toString(), "--check", "-q", "--out", tmp.resolve("va-" + i).toString());
      Result b = cli(i, yaml, "run", file.toString(), "--check", "-q", "--out", tmp.resolve("vb-" + i).toString());
      if (a.exit() != 0 || b.exit() != 0) {
        failure(i, yaml, "a valid scenario exits " + a.exit() + "/" + b.exit() + ":\n" + a.err() + b.err());
      } else if (!digest(tmp.resolve("va-" + i)).equals(digest(tmp.resolve("vb-" + i)))) {
        failure(i, yaml, "two runs of one scenario differ in their workloads digest");
      }
    }
    report();
  }

  @Test
  void mutatedScenarios_endInExit0Or2_neverAnInternalError() throws Exception {
    for (int i = 0; i < CASES; i++) {
      if (ONLY != null && ONLY != i) {
        continue;
      }
      long seed = SEED * 1_000_003L + i;
      Map<String, Object> valid = RandomScenarios.generate(seed);
      for (int m = 0; m < MUTANTS_PER_CASE; m++) {
        Mutations.Mutant mutant = Mutations.mutate(valid, seed * 31 + m);
        String what = mutant.done() + "\n" + mutant.yaml();
        Path file = Files.writeString(tmp.resolve("mutant-" + i + "-" + m + ".yaml"), mutant.yaml());
        Result v = cli(i, what, "validate", file.toString());
        if (!clean(i, what, "validate", v)) {
          continue;
        }
        // Huge values are refused by run-time budgets, not by validate: run only what stays bounded.
        if (v.exit() == 0 && !mutant.huge()) {
          Path out = tmp.resolve("m-" + i + "-" + m);
          Result run = cli(i, what, "run", file.toString(), "--check", "-q", "--out", out.toString());
          if (clean(i, what, "run --check", run) && run.exit() == 2 && Files.exists(out)) {
            failure(i, what, "run refused the scenario but left " + out + " behind");
          }
        }
      }
    }
    report();
  }

  /** Exit 0 or 2 and no internal error; false (with a failure noted) otherwise. */
  private boolean clean(int i, String what, String command, Result r) {
    boolean crashed = r.err().contains("internal error") || r.err().contains("Exception") || r.err().contains("\tat ");
    if (crashed || r.exit() != 0 && r.exit() != 2) {
      failure(i, what, command + " exits " + r.exit() + ": " + r.err().strip());
      return false;
    }
    return true;
  }

  /** Runs the CLI with a time limit; a run that does not finish fails the test at once. */
  private Result cli(int i, String what, String... args) throws Exception {
    Future<Result> f = RUNNER.submit(() -> Cli.run(args));
    try {
      return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      // The engine does not stop on interrupt: the runner is stuck, so this is the last case.
      f.cancel(true);
      failure(i, what, String.join(" ", args) + " did not finish within " + TIMEOUT_SECONDS + " s");
      report();
      throw new IllegalStateException("unreachable");
    }
  }

  private static String digest(Path out) throws Exception {
    Matcher m = DIGEST.matcher(Files.readString(out.resolve("summary.json")));
    return m.find() ? m.group(1) : "none";
  }

  private void failure(int i, String yaml, String message) {
    failures.add("-Dfuzz.seed=" + SEED + " -Dfuzz.case=" + i + ": " + message + "\n--- scenario:\n" + yaml);
  }

  private void report() {
    if (!failures.isEmpty()) {
      StringBuilder sb = new StringBuilder(failures.size() + " failing case(s):\n");
      failures.forEach(f -> sb.append("  ").append(f, 0, f.indexOf('\n')).append('\n'));
      sb.append("\nThe first ones in full:\n\n").append(String.join("\n\n", failures.subList(0, Math.min(3,
          failures.size()))));
      fail(sb.toString());
    }
  }
}
