package batchsim.scenarios.cli;

import batchsim.scenarios.RegularFiles;
import batchsim.reports.WorkloadRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * A run's output directory that appears all at once: files are written into a hidden sibling and
 * renamed into place only when everything succeeded, so a failed run never leaves a partial directory.
 * An existing directory is replaced only if batchsim wrote it (it holds {@value #MARKER}) or it is
 * empty, so a mistyped {@code --out} cannot delete someone's files.
 */
final class OutputDirectory {
  static final String MARKER = ".batchsim";
  private static final String MARKER_TEXT =
      "Written by 'batchsim run'. The next run with the same --out replaces this directory.\n";

  /** Writes the contents of a directory that exists and is empty. */
  @FunctionalInterface
  interface Writer {
    void writeInto(Path dir) throws IOException;
  }

  private final Path target;

  Path path() {
    return target;
  }

  OutputDirectory(Path target) {
    this.target = target.toAbsolutePath().normalize();
  }

  /**
   * Fails early, before a long simulation, if the target could not be written or replaced afterwards:
   * a file in the way, a foreign directory, or a place where nothing can be created.
   */
  void checkReplaceable() throws ScenarioCommand.UserError {
    if (Files.exists(target)) {
      if (!Files.isDirectory(target)) {
        throw new ScenarioCommand.UserError("output " + target + " exists and is not a directory; choose another --out");
      }
      if (!Files.exists(target.resolve(MARKER)) && !isEmpty(target)) {
        throw new ScenarioCommand.UserError("output directory " + target
            + " exists and was not written by batchsim; remove it or choose another --out");
      }
    }
    Writable.check("--out", target);
  }

  /**
   * The rows that stream out of the run into temporary siblings of the directory, until {@link #write} moves
   * them in; the caller discards them in any case.
   */
  WorkloadRows rows(boolean explain) throws IOException {
    return WorkloadRows.open(target.getParent(), target.getFileName().toString(), explain);
  }

  /**
   * Writes into a temporary sibling, then swaps it into place; an I/O error (a full disk, say) is the
   * user's, reported in one line, and leaves the target as it was.
   */
  void write(Writer writer) throws ScenarioCommand.UserError {
    checkReplaceable();
    try {
      Path parent = target.getParent();
      Files.createDirectories(parent);
      Path tmp = createSibling(parent, "." + target.getFileName() + ".tmp-");
      try {
        writer.writeInto(tmp);
        publish(tmp);
      } finally {
        RegularFiles.deleteRecursively(tmp);
      }
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /**
   * The working directory of a sweep that survives a killed run, so that the next run with the same
   * {@code --out} resumes it: a fixed hidden sibling, created when missing.
   */
  Path resumable() throws ScenarioCommand.UserError {
    checkReplaceable();
    try {
      return Files.createDirectories(target.getParent().resolve("." + target.getFileName() + ".tmp-resumable"));
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** The one-line error for an I/O failure while writing this output. */
  ScenarioCommand.UserError failed(IOException e) {
    return new ScenarioCommand.UserError("cannot write " + target + ": " + Writable.reason(e)
        + (Files.exists(target) ? "; it was left as it was" : "; nothing was written"));
  }

  /** Marks {@code work} as batchsim's and moves it into place, replacing the previous output only now. */
  void publish(Path work) throws IOException {
    Files.writeString(work.resolve(MARKER), MARKER_TEXT, StandardCharsets.UTF_8);
    if (!Files.exists(target)) {
      Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
      return;
    }
    Path old = createSibling(target.getParent(), "." + target.getFileName() + ".old-");
    Files.move(target, old, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    try {
      Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      Files.move(old, target, StandardCopyOption.ATOMIC_MOVE); // put the previous run back
      throw e;
    }
    RegularFiles.deleteRecursively(old);
  }

  /**
   * A new directory next to the target (same file system, so the final rename is atomic). Unlike
   * {@code Files.createTempDirectory} it gets the usual permissions, which the renamed output keeps.
   */
  private static Path createSibling(Path parent, String prefix) throws IOException {
    long pid = ProcessHandle.current().pid();
    for (int i = 0; ; i++) {
      try {
        return Files.createDirectory(parent.resolve(prefix + pid + "-" + i));
      } catch (FileAlreadyExistsException e) {
        // another run in this process (tests) or a leftover of a killed one: try the next name
      }
    }
  }

  private static boolean isEmpty(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.findAny().isEmpty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

}
