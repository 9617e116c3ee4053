package batchsim.reports;

import batchsim.core.metrics.Decision;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.world.WorkloadSink;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The per-workload outputs written as the run goes: each record becomes a row of {@value Reports#WORKLOADS_CSV}
 * (and, with {@code --explain}, its decision log rows of {@value Reports#DECISIONS_CSV}) the moment the run
 * sends it, through a bounded write buffer; the digest of the CSV and the per-priority and per-class groups of
 * the HTML report accumulate on the way, so nothing per workload is kept. The files are temporary siblings of
 * the output until {@link #moveInto} (a failed run leaves no partial output: {@link #discard}).
 */
public final class WorkloadRows implements WorkloadSink, Closeable {
  private final Path workloadsFile;
  private final Path decisionsFile;
  private final WorkloadsCsv workloads;
  private final DecisionsCsv decisions;
  private final WorkloadGroups.Tally<Integer> byPriority = WorkloadGroups.Tally.byPriority();
  private final WorkloadGroups.Tally<String> byClass = WorkloadGroups.Tally.byClass();
  private long count;
  private String digest;

  private WorkloadRows(Path workloadsFile, Path decisionsFile) throws IOException {
    this.workloadsFile = workloadsFile;
    this.decisionsFile = decisionsFile;
    this.workloads = new WorkloadsCsv(create(workloadsFile));
    this.decisions = decisionsFile == null ? null : new DecisionsCsv(create(decisionsFile));
  }

  /**
   * Rows written to temporary files in {@code dir} (the output's parent, so they move in on the same file
   * system) named after {@code output}; {@code explain}: decisions.csv too.
   */
  public static WorkloadRows open(Path dir, String output, boolean explain) throws IOException {
    Files.createDirectories(dir);
    Path w = freeName(dir, "." + output + ".workloads-", ".csv");
    Path d = explain ? freeName(dir, "." + output + ".decisions-", ".csv") : null;
    try {
      return new WorkloadRows(w, d);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(w);
      if (d != null) {
        Files.deleteIfExists(d);
      }
      throw e;
    }
  }

  /**
   * A name no file in {@code dir} has, {@code prefix} + random + {@code suffix}; the file is then created with
   * the permissions any output file gets (not a temp file's 0600).
   */
  public static Path freeName(Path dir, String prefix, String suffix) throws IOException {
    Path p = Files.createTempFile(dir, prefix, suffix);
    Files.delete(p);
    return p;
  }

  private static OutputStream create(Path p) throws IOException {
    return Files.newOutputStream(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  }

  @Override
  public void accept(long seq, WorkloadRecord record, List<Decision> log) {
    try {
      workloads.row(record);
      if (decisions != null && log != null) {
        decisions.rows(record.id(), log);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byPriority.add(record);
    byClass.add(record);
    count++;
  }

  /** Rows written so far (one per workload). */
  public long count() {
    return count;
  }

  /** The lowercase hex SHA-256 of workloads.csv's bytes; the files are complete and closed. */
  String digest() throws IOException {
    close();
    return digest;
  }

  WorkloadGroups byPriority(int limit) {
    return byPriority.groups(limit);
  }

  WorkloadGroups byClass(int limit) {
    return byClass.groups(limit);
  }

  /** Completes the files and moves them into {@code dir} as workloads.csv (and decisions.csv). */
  void moveInto(Path dir) throws IOException {
    close();
    Files.move(workloadsFile, dir.resolve(Reports.WORKLOADS_CSV));
    if (decisionsFile != null) {
      Files.move(decisionsFile, dir.resolve(Reports.DECISIONS_CSV));
    }
  }

  /** Completes the files (idempotent). */
  @Override
  public void close() throws IOException {
    if (digest != null) {
      return;
    }
    digest = workloads.finish();
    if (decisions != null) {
      decisions.close();
    }
  }

  /** Deletes what was not moved into an output (a failed run). */
  public void discard() throws IOException {
    try {
      close();
    } finally {
      Files.deleteIfExists(workloadsFile);
      if (decisionsFile != null) {
        Files.deleteIfExists(decisionsFile);
      }
    }
  }
}
