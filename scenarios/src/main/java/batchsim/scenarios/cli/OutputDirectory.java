package batchsim.scenarios.cli;

import batchsim.reports.WorkloadRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
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

  /** Fails early, before a long simulation, if the target could not be replaced afterwards. */
  void checkReplaceable() throws ScenarioCommand.UserError {
    if (!Files.exists(target)) {
      return;
    }
    if (!Files.isDirectory(target)) {
      throw new ScenarioCommand.UserError("output " + target + " exists and is not a directory");
    }
    if (!Files.exists(target.resolve(MARKER)) && !isEmpty(target)) {
      throw new ScenarioCommand.UserError("output directory " + target
          + " exists and was not written by batchsim; remove it or choose another --out");
    }
  }

  /**
   * The rows that stream out of the run into temporary siblings of the directory, until {@link #write} moves
   * them in; the caller discards them in any case.
   */
  WorkloadRows rows(boolean explain) throws IOException {
    return WorkloadRows.open(target.getParent(), target.getFileName().toString(), explain);
  }

  /** Writes into a temporary sibling, then swaps it into place. */
  void write(Writer writer) throws IOException, ScenarioCommand.UserError {
    checkReplaceable();
    Path parent = target.getParent();
    Files.createDirectories(parent);
    String name = target.getFileName().toString();
    Path tmp = createSibling(parent, "." + name + ".tmp-");
    try {
      writer.writeInto(tmp);
      Files.writeString(tmp.resolve(MARKER), MARKER_TEXT, StandardCharsets.UTF_8);
      if (Files.exists(target)) {
        Path old = createSibling(parent, "." + name + ".old-");
        Files.move(target, old, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try {
          Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
          Files.move(old, target, StandardCopyOption.ATOMIC_MOVE); // put the previous run back
          throw e;
        }
        deleteRecursively(old);
      } else {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      }
    } finally {
      deleteRecursively(tmp);
    }
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

  private static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path q : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(q);
      }
    }
  }
}
