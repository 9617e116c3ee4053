package batchsim.scenarios.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Checks, before a run, that an output can be created where the user asked, by creating (and deleting) an
 * empty file there: permissions say little when running as root or on special file systems such as /proc.
 */
final class Writable {
  private Writable() {}

  /** Refuses {@code target} (given with {@code option}) when nothing can be created in its directory. */
  static void check(String option, Path target) throws ScenarioCommand.UserError {
    Path abs = target.toAbsolutePath().normalize();
    Path dir = abs.getParent();
    while (dir != null && !Files.exists(dir)) {
      dir = dir.getParent(); // created by the write; what matters is where the first new entry goes
    }
    if (dir == null || !Files.isDirectory(dir)) {
      throw new ScenarioCommand.UserError(option + " " + target + ": " + dir + " is not a directory");
    }
    try {
      Files.delete(Files.createTempFile(dir, ".batchsim-probe-", ""));
    } catch (IOException e) {
      throw new ScenarioCommand.UserError(option + " " + target + ": cannot create files in " + dir + " ("
          + reason(e) + "); choose another " + option);
    }
  }

  /** What went wrong, in a few words and without the file name the caller already names. */
  static String reason(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
