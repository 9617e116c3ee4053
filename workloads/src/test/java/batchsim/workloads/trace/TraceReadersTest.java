package batchsim.workloads.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceReadersTest {
  static final Path DIR = Path.of("src/test/resources/traces");

  static List<TraceJob> all(LineReader<TraceJob> r) {
    List<TraceJob> out = new ArrayList<>();
    TraceJob j;
    while ((j = r.next()) != null) {
      out.add(j);
    }
    r.close();
    return out;
  }

  static LineReader<TraceJob> open(TraceFormat f, String file, OnError e) throws Exception {
    return f.open(DIR.resolve(file), file, e, GpuOptions.DEFAULT);
  }

  @Test
  void swf_readsFieldsHeaderAndStatus() throws Exception {
    LineReader<TraceJob> r = open(TraceFormat.SWF, "small.swf", OnError.FAIL);
    List<TraceJob> jobs = all(r);
    assertEquals(7, jobs.size());
    TraceJob first = jobs.get(0);
    assertEquals("1", first.id());
    assertEquals(9, first.line());
    assertEquals(100_000, first.submitMs());
    assertEquals(60_000, first.runtimeMs());
    assertEquals(120_000, first.requestedMs());
    assertEquals(4, first.units());
    assertEquals(JobStatus.COMPLETED, first.status());
    assertEquals(Map.of("user", "12", "group", "3", "executable", "", "queue", "1", "partition", ""),
        first.attributes());
    assertEquals(JobStatus.FAILED, jobs.get(1).status());
    assertEquals(JobStatus.CANCELLED, jobs.get(2).status());
    assertEquals(TraceJob.UNKNOWN, jobs.get(2).runtimeMs(), "run time -1 stays unknown");
    assertEquals(8, jobs.get(3).units(), "allocated -1: the requested processors");
    assertEquals(TraceJob.UNKNOWN, jobs.get(4).units(), "both -1: unknown");
    assertEquals("8", r.header().get("MaxProcs"));
    assertEquals("1 batch\n2 short", r.header().get("Queue"));
  }

  @Test
  void swf_malformedLine_failsWithFileLineColumnAndField() throws Exception {
    LineReader<TraceJob> r = open(TraceFormat.SWF, "malformed.swf", OnError.FAIL);
    assertEquals("1", r.next().id());
    TraceFormatException e = assertThrows(TraceFormatException.class, r::next);
    assertEquals("malformed.swf:3:1: expected 18 whitespace-separated fields, got 17", e.getMessage());
    r.close();
  }

  @Test
  void swf_malformedLines_skippedAndRemembered() throws Exception {
    LineReader<TraceJob> r = open(TraceFormat.SWF, "malformed.swf", OnError.SKIP);
    assertEquals(List.of("1", "3", "5"), all(r).stream().map(TraceJob::id).toList());
    assertEquals(2, r.skippedCount());
    assertEquals(List.of(3, 5), r.skipped().stream().map(TraceFormatException::line).toList());
    TraceFormatException bad = r.skipped().get(1);
    assertEquals("run time", bad.field());
    assertEquals("malformed.swf:5:25: run time: 'abc' is not a number", bad.getMessage());
  }

  @Test
  void philly_readsVcTimesAndGpus() throws Exception {
    List<TraceJob> jobs = all(open(TraceFormat.PHILLY, "philly-small.csv", OnError.FAIL));
    assertEquals(6, jobs.size());
    TraceJob j = jobs.get(0);
    assertEquals("2", j.id(), "no job id in the table: the line number");
    assertEquals(66_000, j.runtimeMs());
    assertEquals(1, j.units());
    assertEquals("11cb48", j.attribute("vc"));
    assertEquals(10_500, jobs.get(3).runtimeMs());
    assertEquals(jobs.get(0).submitMs() - 48 * 60_000 - 52_000, jobs.get(1).submitMs());
  }

  @Test
  void philly_malformedLines_reportColumnNames() throws Exception {
    LineReader<TraceJob> r = open(TraceFormat.PHILLY, "philly-malformed.csv", OnError.SKIP);
    assertEquals(2, all(r).size());
    List<String> messages = r.skipped().stream().map(TraceFormatException::getMessage).toList();
    assertEquals(List.of(
        "philly-malformed.csv:3:1: timestamp: '2017-10-09 6:13' is not a time like 2017-10-09 07:01:55",
        "philly-malformed.csv:4:1: expected 5 comma-separated fields as in the header, got 4",
        "philly-malformed.csv:5:21: duration: 'ten' is not a number of seconds"), messages);
  }

  @Test
  void csv_missingColumn_isFatalWhateverOnError() {
    BufferedReader in = new BufferedReader(new StringReader("timestamp,duration,gpus,cluster\n"));
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> TraceFormat.PHILLY.reader(in, "x.csv", OnError.SKIP, GpuOptions.DEFAULT));
    assertTrue(e.getMessage().startsWith("x.csv:1:1: missing column 'num_gpus'"), e.getMessage());
  }

  @Test
  void alibabaPods_requestsStatusAndGpuSharing() throws Exception {
    List<TraceJob> whole = all(open(TraceFormat.ALIBABA, "alibaba-pods.csv", OnError.FAIL));
    assertEquals(5, whole.size());
    TraceJob shared = whole.get(1);
    assertEquals(Map.of("cpu", 6000L, "memory", 12288L << 20, "nvidia.com/gpu", 1L), shared.perPod());
    assertEquals(540_000, shared.runtimeMs(), "scheduled at 160, deleted at 700");
    assertEquals(JobStatus.UNKNOWN, shared.status(), "still Running at the end of the trace");
    assertEquals(JobStatus.COMPLETED, whole.get(2).status());
    assertEquals(8L, whole.get(2).perPod().get("nvidia.com/gpu"));
    assertEquals(Map.of("cpu", 4000L, "memory", 8192L << 20), whole.get(3).perPod(), "CPU-only pod");
    TraceJob pending = whole.get(4);
    assertEquals(JobStatus.CANCELLED, pending.status(), "never scheduled");
    assertEquals(600_000, pending.runtimeMs(), "its lifetime");

    LineReader<TraceJob> milli = TraceFormat.ALIBABA.open(DIR.resolve("alibaba-pods.csv"), "p", OnError.FAIL,
        new GpuOptions("alibaba.com/gpu-milli", true));
    List<TraceJob> m = all(milli);
    assertEquals(460L, m.get(1).perPod().get("alibaba.com/gpu-milli"));
    assertEquals(8000L, m.get(2).perPod().get("alibaba.com/gpu-milli"));
  }

  @Test
  void alibabaNodes_groupIntoPools() throws Exception {
    AlibabaNodeReader r = AlibabaNodeReader.open(DIR.resolve("alibaba-nodes.csv"), "n", OnError.FAIL,
        GpuOptions.DEFAULT);
    List<NodeRecord> nodes = new ArrayList<>();
    NodeRecord n;
    while ((n = r.next()) != null) {
      nodes.add(n);
    }
    r.close();
    assertEquals(6, nodes.size());
    List<NodePools.Pool> pools = NodePools.group(nodes, x -> NodePools.describe(x, GpuOptions.DEFAULT));
    assertEquals(List.of("cpu-32c-256gi", "g2-96c-384gi-8gpu", "t4-104c-512gi-2gpu"),
        pools.stream().map(NodePools.Pool::name).toList());
    assertEquals(List.of(2, 3, 1), pools.stream().map(NodePools.Pool::count).toList());
    assertEquals(Map.of(AlibabaNodeReader.MODEL_LABEL, "G2"), pools.get(1).labels());
    assertEquals(8L, pools.get(1).allocatable().get("nvidia.com/gpu"));
    assertNull(pools.get(0).allocatable().get("nvidia.com/gpu"));
  }
}
