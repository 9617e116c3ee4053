package batchsim.reports;

import batchsim.core.metrics.WorkloadRecord;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/** workloads.csv: one RFC 4180 row per workload, streamed (runs can have a million workloads). */
final class WorkloadsCsv {
  static final String HEADER = "id,class,local_queue,cluster_queue,priority,created_ms,"
      + "first_quota_reserved_ms,quota_reserved_ms,admitted_ms,started_ms,finished_ms,wait_ms,"
      + "evictions,preemptions,state,flavors,message";

  private WorkloadsCsv() {}

  /**
   * Writes the table to {@code out} (which is closed) and returns the lowercase hex SHA-256 of exactly
   * the bytes written.
   */
  static String write(List<WorkloadRecord> workloads, OutputStream out) throws IOException {
    MessageDigest sha = sha256();
    try (Writer w = new BufferedWriter(
        new OutputStreamWriter(new DigestOutputStream(out, sha), StandardCharsets.UTF_8), 1 << 16)) {
      w.write(HEADER);
      w.write('\n');
      for (WorkloadRecord r : workloads) {
        writeRow(w, r);
      }
    }
    return Formats.hex(sha.digest());
  }

  private static void writeRow(Writer w, WorkloadRecord r) throws IOException {
    text(w, r.id());
    w.write(',');
    text(w, r.workloadClass());
    w.write(',');
    text(w, r.localQueue());
    w.write(',');
    text(w, r.clusterQueue());
    w.write(',');
    w.write(Integer.toString(r.priority()));
    w.write(',');
    time(w, r.createdMs());
    w.write(',');
    time(w, r.firstQuotaReservedMs());
    w.write(',');
    time(w, r.quotaReservedMs());
    w.write(',');
    time(w, r.admittedMs());
    w.write(',');
    time(w, r.startedMs());
    w.write(',');
    time(w, r.finishedMs());
    w.write(',');
    if (r.firstQuotaReservedMs() != WorkloadRecord.NEVER) {
      w.write(Long.toString(r.firstQuotaReservedMs() - r.createdMs()));
    }
    w.write(',');
    w.write(Integer.toString(r.evictions()));
    w.write(',');
    w.write(Integer.toString(r.preemptions()));
    w.write(',');
    text(w, r.state());
    w.write(',');
    text(w, r.flavors());
    w.write(',');
    text(w, r.lastMessage());
    w.write('\n');
  }

  /** A milestone, or an empty cell when it was never reached. */
  private static void time(Writer w, long ms) throws IOException {
    if (ms != WorkloadRecord.NEVER) {
      w.write(Long.toString(ms));
    }
  }

  /** A text cell; null is empty, and RFC 4180 quoting applies only when the value needs it. */
  static void text(Writer w, String s) throws IOException {
    if (s == null || s.isEmpty()) {
      return;
    }
    if (!needsQuotes(s)) {
      w.write(s);
      return;
    }
    w.write('"');
    int from = 0;
    for (int q = s.indexOf('"'); q >= 0; q = s.indexOf('"', from)) {
      w.write(s, from, q + 1 - from);
      w.write('"');
      from = q + 1;
    }
    w.write(s, from, s.length() - from);
    w.write('"');
  }

  private static boolean needsQuotes(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ',' || c == '"' || c == '\n' || c == '\r') {
        return true;
      }
    }
    return false;
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
  }
}
