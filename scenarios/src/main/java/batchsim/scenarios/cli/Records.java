package batchsim.scenarios.cli;

import batchsim.reports.WorkloadRows;
import batchsim.core.world.StatusSink;
import batchsim.reports.StatusJsonl;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The opt-in records of {@code batchsim run --record NAME[,NAME]}: each streams to its own file while the run
 * goes (they can be long), next to the output directory, and moves into it with the reports. Today there is
 * {@code status} ({@value StatusJsonl#FILE}); a new record (e.g. {@code metrics}) is one more {@link Kind}.
 */
final class Records implements Closeable {
  /** The records there are. */
  enum Kind {
    STATUS("status", StatusJsonl.FILE);

    final String word;
    final String file;

    Kind(String word, String file) {
      this.word = word;
      this.file = file;
    }
  }

  private final Set<Kind> kinds;
  private final List<Path> temps = new ArrayList<>();
  private StatusJsonl status;
  private Path statusTemp;

  private Records(Set<Kind> kinds) {
    this.kinds = kinds;
  }

  /** The records named on the command line; an unknown name is the user's error (exit 2). */
  static Records parse(List<String> names) throws ScenarioCommand.UserError {
    Set<Kind> kinds = new LinkedHashSet<>();
    for (String n : names) {
      Kind k = null;
      for (Kind c : Kind.values()) {
        if (c.word.equals(n.strip())) {
          k = c;
        }
      }
      if (k == null) {
        List<String> known = new ArrayList<>();
        for (Kind c : Kind.values()) {
          known.add(c.word);
        }
        throw new ScenarioCommand.UserError("unknown record '" + n.strip() + "' for --record (known: "
            + String.join(", ", known) + ")");
      }
      kinds.add(k);
    }
    return new Records(kinds);
  }

  boolean isEmpty() {
    return kinds.isEmpty();
  }

  /** Opens the record files next to {@code outDir} (same file system: they move in at the end). */
  void open(Path outDir) throws IOException {
    Path parent = outDir.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    if (kinds.contains(Kind.STATUS)) {
      statusTemp = WorkloadRows.freeName(parent, "." + outDir.getFileName() + ".status-", ".jsonl");
      temps.add(statusTemp);
      status = new StatusJsonl(statusTemp);
    }
  }

  /** The status record's sink, or null when not asked for. */
  StatusSink status() {
    return status;
  }

  /** Closes the files and moves them into {@code dir} (the output directory being written). */
  void moveInto(Path dir) throws IOException {
    close();
    if (statusTemp != null) {
      Files.move(statusTemp, dir.resolve(Kind.STATUS.file));
    }
  }

  /** Closes the files. */
  @Override
  public void close() throws IOException {
    if (status != null) {
      status.close();
      status = null;
    }
  }

  /** Deletes the temporary files left (a failed run). */
  void discard() throws IOException {
    close();
    for (Path p : temps) {
      Files.deleteIfExists(p);
    }
  }
}
