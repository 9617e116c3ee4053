package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.Decision;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rows streamed during a run give the same outputs as a result that lists its workloads, and no leftovers. */
class WorkloadRowsTest {
  @TempDir Path tmp;

  @Test
  void streamedRows_writeWhatTheListWrites() throws IOException {
    RunResult r = Fixtures.resultWithEverything();
    Path listed = Files.createDirectories(tmp.resolve("listed"));
    Reports.writeAll(r, Fixtures.META, listed);

    Path streamed = Files.createDirectories(tmp.resolve("streamed"));
    WorkloadRows rows = WorkloadRows.open(tmp, "streamed", false);
    for (WorkloadRecord w : r.workloads()) {
      rows.accept(0, w, null);
    }
    assertEquals(r.workloads().size(), rows.count());
    Reports.writeAll(r, Fixtures.META, rows, streamed);
    rows.discard();
    for (String f : List.of(Reports.WORKLOADS_CSV, Reports.SUMMARY_JSON, Reports.REPORT_HTML, Reports.WAITS_HLOG)) {
      assertArrayEquals(Files.readAllBytes(listed.resolve(f)), Files.readAllBytes(streamed.resolve(f)), f);
    }
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(List.of("listed", "streamed"), left.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void decisionsFollowTheirWorkloads_andADiscardedRunLeavesNothing() throws IOException {
    WorkloadRows rows = WorkloadRows.open(tmp, "out", true);
    WorkloadRecord w = Fixtures.resultWithEverything().workloads().get(0);
    rows.accept(7, w, List.of(new Decision(5, "QuotaReserved", true, "QuotaReserved", "in, cq")));
    Path out = Files.createDirectories(tmp.resolve("out"));
    rows.moveInto(out);
    assertEquals(DecisionsCsv.HEADER + "\n" + w.id() + ",5,QuotaReserved,True,QuotaReserved,\"in, cq\"\n",
        Files.readString(out.resolve(Reports.DECISIONS_CSV)));

    WorkloadRows failed = WorkloadRows.open(tmp, "failed", true);
    failed.accept(0, w, List.of());
    failed.discard();
    try (Stream<Path> left = Files.list(tmp)) {
      assertTrue(left.allMatch(p -> p.getFileName().toString().equals("out")), "only the finished output");
    }
  }
}
