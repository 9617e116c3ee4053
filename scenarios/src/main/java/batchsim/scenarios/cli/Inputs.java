package batchsim.scenarios.cli;

import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.RunLimits;
import batchsim.scenarios.ScenarioException;
import batchsim.scenarios.ScenarioLoader;
import batchsim.scenarios.overrides.Composition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/** Reading scenarios with {@code --set} overrides, and writing single files, with user-facing errors. */
final class Inputs {
  private Inputs() {}

  /** Loads {@code file} with overrides; an unreadable file is the user's problem, reported in one line. */
  static LoadedScenario load(Path file, List<String> sets) throws ScenarioException, ScenarioCommand.UserError {
    return load(file, sets, RunLimits.DEFAULTS);
  }

  /** {@link #load(Path, List)}, refusing a scenario that exceeds {@code limits} before it runs. */
  static LoadedScenario load(Path file, List<String> sets, RunLimits limits)
      throws ScenarioException, ScenarioCommand.UserError {
    checkFile(file);
    try {
      return ScenarioLoader.load(file, sets, limits);
    } catch (NoSuchFileException e) {
      throw new ScenarioCommand.UserError(file + ": no such file");
    } catch (IOException e) {
      throw new ScenarioCommand.UserError(file + ": cannot read: " + e.getMessage());
    }
  }

  /** The composed tree of {@code file} (for sweeps), with the same error handling as {@link #load}. */
  static Composition compose(Path file, List<String> sets) throws ScenarioException, ScenarioCommand.UserError {
    checkFile(file);
    try {
      return ScenarioLoader.compose(file, sets);
    } catch (NoSuchFileException e) {
      throw new ScenarioCommand.UserError(file + ": no such file");
    } catch (IOException e) {
      throw new ScenarioCommand.UserError(file + ": cannot read: " + e.getMessage());
    }
  }

  private static void checkFile(Path file) throws ScenarioCommand.UserError {
    if (Files.isDirectory(file)) {
      throw new ScenarioCommand.UserError(file + ": is a directory, not a scenario file");
    }
  }

  /** Writes {@code text} to {@code file} through a temporary sibling, so readers never see half a file. */
  static void writeAtomically(Path file, String text) throws IOException {
    Path abs = file.toAbsolutePath().normalize();
    Files.createDirectories(abs.getParent());
    Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName(), ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
