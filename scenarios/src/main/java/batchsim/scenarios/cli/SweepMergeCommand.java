package batchsim.scenarios.cli;

import batchsim.scenarios.RegularFiles;
import batchsim.scenarios.sweep.Cell;
import batchsim.scenarios.sweep.CellResult;
import batchsim.scenarios.sweep.SweepPlan;
import batchsim.scenarios.sweep.SweepRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim sweep merge DIR...}: the cells a sweep ran one by one ({@code sweep SCENARIO --cell N --out DIR},
 * the pods of {@code --emit k8s}) gathered into the sweep's output, byte for byte what {@code sweep SCENARIO} writes.
 * The scenario and options are those of {@code DIR/sweep.json}, planned again here; a cell is taken from the first
 * DIR whose done-marker vouches for it. Missing cells, or cells of another run, are listed (exit
 * {@value #INCOMPLETE}) and what was gathered waits, as an interrupted sweep does, for the next merge.
 */
@Command(name = "merge", header = "Gather the cells of a sweep run one by one (sweep --cell, on Kubernetes) into "
    + "its tables and report.", mixinStandardHelpOptions = true)
final class SweepMergeCommand extends ScenarioCommand {
  /** Exit code when cells are missing. */
  static final int INCOMPLETE = 4;

  @Parameters(arity = "1..*", paramLabel = "DIR", description = "Directories the cells were written to (--out of "
      + "sweep --cell), each with cells/ and sweep.json; the scenario sweep.json names is read from the working "
      + "directory.")
  List<Path> dirs = new ArrayList<>();

  @Option(names = "--out", paramLabel = "OUT", description = "Output directory (default: out/<scenario name>-sweep).")
  Path out;

  @picocli.CommandLine.Mixin
  SweepVerdicts verdicts = new SweepVerdicts();

  @Override
  int execute() throws Exception {
    SweepSettings settings = settings();
    SweepSettings.Planned planned;
    try {
      planned = settings.plan();
    } catch (UserError e) {
      throw new UserError(e.getMessage() + " (the scenario named in " + SweepSettings.FILE + " is read relative to "
          + "the working directory: merge where the sweep was emitted)");
    }
    SweepPlan plan = planned.plan();
    String name = planned.name();
    OutputDirectory dir = new OutputDirectory(out != null ? out : Path.of("out", RunCommand.dirName(name) + "-sweep"));
    dir.checkReplaceable();
    Verdicts.checkJUnit(verdicts.junit);
    SweepRunner runner = new SweepRunner(planned.metrics(), settings.check(), Version.build());
    List<CellResult> results = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    try (SweepWork work = SweepWork.claim(dir, name)) {
      Path cells = work.dir().resolve("cells");
      Files.createDirectories(cells);
      SweepRunner.dropStrays(plan.cells(), cells);
      for (Cell cell : plan.cells()) {
        CellResult r = gather(runner, cell, cells.resolve(cell.dir()));
        if (r != null) {
          results.add(r);
        } else {
          missing.add("batchsim: cell " + cell.index() + " (" + cell.name() + "): " + unfinished(runner, cell));
        }
      }
      if (missing.isEmpty()) {
        SweepCommand.report(plan, planned.metrics(), results).write(work.dir());
        work.publish();
      }
    } catch (IOException e) {
      throw dir.failed(e);
    } catch (UncheckedIOException e) {
      throw dir.failed(e.getCause());
    }
    if (!missing.isEmpty()) {
      missing.forEach(err()::println);
      err().println("batchsim: " + missing.size() + " of " + plan.cells().size() + " cells missing; run them again "
          + "(batchsim sweep " + String.join(" ", settings.args().stream().map(SweepMergeCommand::shellWord)
          .toList()) + " --cell N --out DIR) and merge again");
      return INCOMPLETE;
    }
    return verdicts.finish(plan, planned.metrics(), results, out(), err(), "batchsim: "
        + results.size() + " runs merged from " + dirs.size() + " director" + (dirs.size() == 1 ? "y" : "ies")
        + "; sweep in " + dir.path());
  }

  /**
   * What the DIRs tell of a cell none holds a finished run of: a recorded failure first, else what its
   * directory holds (incomplete, another build's, another scenario's), else that there is no result.
   */
  private String unfinished(SweepRunner runner, Cell cell) throws IOException {
    for (Path d : dirs) {
      Path failed = SweepCell.failed(d, cell);
      if (Files.isRegularFile(failed)) {
        return "failed, " + Files.readString(failed).strip() + "; fix it and run the index again";
      }
    }
    for (Path d : dirs) {
      String why = runner.unfinished(cell, d.resolve("cells").resolve(cell.dir()));
      if (why != null && !why.equals("no result")) {
        return why + "; run the index again";
      }
    }
    return "no result (not run yet, still running, or its pod was lost before writing)";
  }

  /** {@code word} as a POSIX shell reads it back: bare when it is safe, else in single quotes. */
  static String shellWord(String word) {
    return word.matches("[-A-Za-z0-9_./=:,+%@]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  /** The one sweep the DIRs hold cells of. */
  private SweepSettings settings() throws UserError {
    SweepSettings found = null;
    Path from = null;
    for (Path d : dirs) {
      if (!Files.isDirectory(d)) {
        throw new UserError(d + ": no such directory");
      }
      SweepSettings s = SweepSettings.read(d);
      if (s != null && found != null && !s.equals(found)) {
        throw new UserError(d + " and " + from + " hold cells of different sweeps (" + String.join(" ", s.args())
            + "; " + String.join(" ", found.args()) + ")");
      }
      if (s != null && found == null) {
        found = s;
        from = d;
      }
    }
    if (found == null) {
      throw new UserError("no " + SweepSettings.FILE + " in " + dirs.stream().map(Path::toString).toList()
          + ": give the --out directories of 'batchsim sweep SCENARIO --cell N --out DIR'");
    }
    return found;
  }

  /**
   * The cell's result, already in {@code target} or copied there from the first DIR whose marker vouches for it;
   * null when none does.
   */
  private CellResult gather(SweepRunner runner, Cell cell, Path target) throws IOException {
    CellResult r = runner.finished(cell, target);
    if (r != null) {
      return r;
    }
    for (Path d : dirs) {
      Path src = d.resolve("cells").resolve(cell.dir());
      r = runner.finished(cell, src);
      if (r != null) {
        RegularFiles.deleteRecursively(target);
        copy(src, target);
        return r;
      }
    }
    return null;
  }

  private static void copy(Path from, Path to) throws IOException {
    List<Path> all;
    try (Stream<Path> s = Files.walk(from)) {
      all = s.sorted().toList();
    }
    for (Path p : all) {
      Path t = to.resolve(from.relativize(p).toString());
      if (Files.isDirectory(p)) {
        Files.createDirectories(t);
      } else {
        Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }
}
