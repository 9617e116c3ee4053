package batchsim.reports;

import batchsim.core.metrics.WorkloadRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * workloads.csv: one RFC 4180 row per workload, written as the run sends each record (runs can have a million
 * workloads): ended workloads in the order they ended, then the live ones in arrival order.
 */
final class WorkloadsCsv {
  static final String HEADER = "id,class,local_queue,cluster_queue,priority,created_ms,"
      + "first_quota_reserved_ms,quota_reserved_ms,admitted_ms,started_ms,finished_ms,wait_ms,"
      + "evictions,preemptions,state,flavors,message";

  private final MessageDigest sha = sha256();
  private final CsvWriter csv;

  /** A table on {@code out} (closed by {@link #finish}), its header written. */
  WorkloadsCsv(OutputStream out) throws IOException {
    this.csv = CsvWriter.utf8(new DigestOutputStream(out, sha));
    csv.row(List.of(HEADER.split(",")));
  }

  void row(WorkloadRecord r) throws IOException {
    csv.cell(r.id()).cell(r.workloadClass()).cell(r.localQueue()).cell(r.clusterQueue()).cell(r.priority())
        .cell(time(r.createdMs())).cell(time(r.firstQuotaReservedMs())).cell(time(r.quotaReservedMs()))
        .cell(time(r.admittedMs())).cell(time(r.startedMs())).cell(time(r.finishedMs()))
        .cell(r.firstQuotaReservedMs() == WorkloadRecord.NEVER ? null
            : Long.toString(r.firstQuotaReservedMs() - r.createdMs()))
        .cell(r.evictions()).cell(r.preemptions()).cell(r.state()).cell(r.flavors()).cell(r.lastMessage())
        .endRow();
  }

  /** Closes the table and returns the lowercase hex SHA-256 of exactly the bytes written. */
  String finish() throws IOException {
    csv.close();
    return Formats.hex(sha.digest());
  }

  /** A milestone, or an empty cell (null) when it was never reached. */
  private static String time(long ms) {
    return ms == WorkloadRecord.NEVER ? null : Long.toString(ms);
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
  }
}
