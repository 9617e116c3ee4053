package batchsim.workloads.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSpec;
import java.io.BufferedReader;
import java.io.Reader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TraceSourceTest {
  static final Path DIR = TraceReadersTest.DIR;
  static final ResourceSpace SPACE = ResourceSpace.of(List.of("cpu", "memory", "pods", "nvidia.com/gpu"));
  static final int CPU = 0;
  static final int GPU = 3;

  static TraceMapping mapping(String name, TraceMapping.Route queue, TraceMapping.PodShape shape) {
    return new TraceMapping(name, null, queue, TraceMapping.Route.of(null), Map.of(), shape, false, 1);
  }

  static TraceSelection selection(long from, long to, double speedup, double sample, long limit) {
    return new TraceSelection(from, to, speedup, sample, false, false, limit, TraceSelection.SortMode.AUTO,
        TraceSelection.DEFAULT_SORT_BUFFER, OnError.FAIL);
  }

  static List<WorkloadSpec> drain(WorkloadSource s) {
    List<WorkloadSpec> out = new ArrayList<>();
    WorkloadSpec w;
    while ((w = s.next()) != null) {
      out.add(w);
    }
    s.close();
    return out;
  }

  static TraceSource swf(TraceSelection sel, TraceMapping.PodShape shape) {
    return new TraceSource("kth", DIR.resolve("small.swf"), "small.swf", TraceFormat.SWF, GpuOptions.DEFAULT, sel,
        mapping("kth", TraceMapping.Route.of("hpc/main"), shape), SPACE, false);
  }

  static final TraceMapping.PodShape ONE_CPU = new TraceMapping.PodShape(Map.of("cpu", 1000L), Map.of(), 1, 0);

  @Test
  void swf_dropsUnknownJobs_shiftsToFirstSubmission() {
    List<WorkloadSpec> w = drain(swf(TraceSelection.ALL, ONE_CPU).open(new SplittableRandom(1)));
    // job 3 (run time -1) and job 5 (no processor count) cannot be simulated
    assertEquals(List.of("kth-1", "kth-2", "kth-4", "kth-6", "kth-7"), w.stream().map(WorkloadSpec::id).toList());
    assertEquals(List.of(0L, 0L, 100_000L, 300_000L, 3_600_000L), w.stream().map(WorkloadSpec::createdMs).toList());
    WorkloadSpec first = w.get(0);
    assertEquals("hpc/main", first.localQueue());
    assertEquals("kth", first.workloadClass());
    assertEquals(60_000, first.runtimeMs());
    assertEquals(1, first.podSets().size());
    assertEquals(4, first.podSets().get(0).count(), "one pod per processor");
    assertEquals(1000, first.podSets().get(0).perPod().get(CPU));
  }

  @Test
  void podShape_unitsPerPod_lastPodTakesTheRest() {
    TraceMapping.PodShape shape = new TraceMapping.PodShape(Map.of("cpu", 1000L), Map.of("memory", 1L << 30), 3, 0);
    List<WorkloadSpec> w = drain(swf(TraceSelection.ALL, shape).open(new SplittableRandom(1)));
    List<PodSetSpec> eight = w.get(2).podSets(); // job 4: 8 processors
    assertEquals(2, eight.size());
    assertEquals("main", eight.get(0).name());
    assertEquals(2, eight.get(0).count());
    assertEquals(3000, eight.get(0).perPod().get(CPU));
    assertEquals(1L << 30, eight.get(0).perPod().get(1));
    assertEquals("rest", eight.get(1).name());
    assertEquals(1, eight.get(1).count());
    assertEquals(2000, eight.get(1).perPod().get(CPU));
    assertEquals(1, w.get(1).podSets().get(0).count(), "a 1-processor job is one small pod");
    assertEquals(1000, w.get(1).podSets().get(0).perPod().get(CPU));
  }

  @Test
  void podShape_podsPerJob_spreadsUnitsEvenly() {
    TraceMapping.PodShape shape = new TraceMapping.PodShape(Map.of("cpu", 1000L), Map.of(), 1, 3);
    assertEquals(List.of(List.of(2L, 3L), List.of(1L, 2L)),
        List.of(List.of(shape.split(8)[0][0], shape.split(8)[0][1]), List.of(shape.split(8)[1][0], shape.split(8)[1][1])));
    assertEquals(1, shape.split(2).length);
    assertEquals(2, shape.split(2)[0][0], "never more pods than units");
  }

  @Test
  void window_speedup_limit_dropCancelled() {
    TraceSelection sel = new TraceSelection(100_000, 3_600_000, 2, 1, true, false, TraceSelection.UNLIMITED,
        TraceSelection.SortMode.AUTO, 10, OnError.FAIL);
    List<WorkloadSpec> w = drain(swf(sel, ONE_CPU).open(new SplittableRandom(1)));
    // window [100s, 3600s) after the first submission (t=100): jobs 4 (t=100) and 6 (t=300); job 7 is at 3600.
    assertEquals(List.of("kth-4", "kth-6"), w.stream().map(WorkloadSpec::id).toList());
    assertEquals(List.of(0L, 100_000L), w.stream().map(WorkloadSpec::createdMs).toList(), "gaps halved");
    assertEquals(2, drain(swf(selection(0, Long.MAX_VALUE, 1, 1, 2), ONE_CPU).open(new SplittableRandom(1))).size());
  }

  @Test
  void sampling_isSeededAndDeterministic() {
    TraceSource s = swf(selection(0, Long.MAX_VALUE, 1, 0.5, TraceSelection.UNLIMITED), ONE_CPU);
    List<String> a = drain(s.open(new SplittableRandom(5))).stream().map(WorkloadSpec::id).toList();
    assertEquals(a, drain(s.open(new SplittableRandom(5))).stream().map(WorkloadSpec::id).toList());
    boolean differs = false;
    for (int seed = 6; seed < 40 && !differs; seed++) {
      differs = !a.equals(drain(s.open(new SplittableRandom(seed))).stream().map(WorkloadSpec::id).toList());
    }
    assertTrue(differs, "another seed samples other jobs");
  }

  @Test
  void philly_unsortedTrace_sortedStably_routedByVc() {
    TraceMapping m = new TraceMapping("philly", null,
        new TraceMapping.Route("other/main", "vc", Map.of("6214e9", "vc-a/main", "11cb48", "vc-b/main")),
        TraceMapping.Route.of(null), Map.of(), new TraceMapping.PodShape(Map.of("nvidia.com/gpu", 1L), Map.of(), 8, 0),
        false, 1);
    TraceSource s = new TraceSource("philly", DIR.resolve("philly-small.csv"), "philly-small.csv", TraceFormat.PHILLY,
        GpuOptions.DEFAULT, TraceSelection.ALL, m, SPACE, true);
    List<WorkloadSpec> w = drain(s.open(new SplittableRandom(1)));
    // ties at 07:01:55 keep file order: lines 2, 4, 6
    assertEquals(List.of("philly-5", "philly-3", "philly-2", "philly-4", "philly-6", "philly-7"),
        w.stream().map(WorkloadSpec::id).toList());
    assertEquals(List.of("other/main", "vc-a/main", "vc-b/main", "vc-a/main", "vc-b/main", "other/main"),
        w.stream().map(WorkloadSpec::localQueue).toList());
    WorkloadSpec sixteen = w.get(3);
    assertEquals(1, sixteen.podSets().size());
    assertEquals(2, sixteen.podSets().get(0).count());
    assertEquals(8, sixteen.podSets().get(0).perPod().get(GPU));
    WorkloadSpec twelve = w.get(4);
    assertEquals(List.of(1, 1), twelve.podSets().stream().map(PodSetSpec::count).toList());
    assertEquals(4, twelve.podSets().get(1).perPod().get(GPU));
  }

  @Test
  void unsortedTrace_withoutSort_isAnErrorAtTheLine() {
    TraceSource s = new TraceSource("p", DIR.resolve("philly-small.csv"), "philly-small.csv", TraceFormat.PHILLY,
        GpuOptions.DEFAULT, TraceSelection.ALL, mapping("p", TraceMapping.Route.of("q"),
            new TraceMapping.PodShape(Map.of("nvidia.com/gpu", 1L), Map.of(), 1, 0)), SPACE, false);
    WorkloadSource src = s.open(new SplittableRandom(1));
    src.next();
    TraceFormatException e = assertThrows(TraceFormatException.class, src::next);
    assertTrue(e.getMessage().startsWith("philly-small.csv:3:1: submitted before the job at line 2"), e.getMessage());
    src.close();
  }

  @Test
  void externalSort_smallBuffer_sameOrderAsInMemory() {
    // 2,000 jobs in descending blocks; a buffer of 7 forces ~286 sorted runs on disk.
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      long t = (2000 - i / 10) * 10L + (i % 3);
      sb.append(String.format("%d %d 0 5 1 -1 -1 1 5 -1 1 %d 1 -1 -1 -1 -1 -1%n", i + 1, t, i % 7));
    }
    List<String> inMemory = sortedIds(sb.toString(), 1_000_000);
    List<String> external = sortedIds(sb.toString(), 7);
    assertEquals(2000, inMemory.size());
    assertEquals(inMemory, external);
  }

  private static List<String> sortedIds(String swf, int buffer) {
    LineReader<TraceJob> r = TraceFormat.SWF.reader(new BufferedReader(new java.io.StringReader(swf)), "gen.swf",
        OnError.FAIL, GpuOptions.DEFAULT);
    Jobs sorted = ExternalSorter.sort(Jobs.of(r), buffer);
    List<String> ids = new ArrayList<>();
    long previous = Long.MIN_VALUE;
    int previousSeq = -1;
    TraceJob j;
    while ((j = sorted.next()) != null) {
      assertTrue(j.submitMs() >= previous);
      if (j.submitMs() == previous) {
        assertTrue(Integer.parseInt(j.id()) > previousSeq, "stable: ties keep file order");
      }
      previous = j.submitMs();
      previousSeq = Integer.parseInt(j.id());
      ids.add(j.id());
    }
    sorted.close();
    return ids;
  }

  /** A 500,000-job SWF trace generated on the fly, counting the lines handed out. */
  static final class GeneratedSwf extends Reader {
    final int jobs;
    int produced;
    private String pending = "";
    private int pos;

    GeneratedSwf(int jobs) {
      this.jobs = jobs;
    }

    @Override
    public int read(char[] buf, int off, int len) {
      if (pos == pending.length()) {
        if (produced == jobs) {
          return -1;
        }
        produced++;
        pending = produced + " " + (produced * 3L) + " 0 60 " + (1 + produced % 16)
            + " -1 -1 1 60 -1 1 " + (produced % 50) + " 1 -1 -1 -1 -1 -1\n";
        pos = 0;
      }
      int n = Math.min(len, pending.length() - pos);
      pending.getChars(pos, pos + n, buf, off);
      pos += n;
      return n;
    }

    @Override
    public void close() {}
  }

  @Test
  void streaming_500kJobs_readLazily() {
    GeneratedSwf gen = new GeneratedSwf(500_000);
    LineReader<TraceJob> r = TraceFormat.SWF.reader(new BufferedReader(gen, 8192), "gen.swf", OnError.FAIL,
        GpuOptions.DEFAULT);
    Jobs jobs = Jobs.of(r);
    assertEquals("1", jobs.next().id());
    assertTrue(gen.produced < 200, "the first job is available after reading one buffer, not the trace: "
        + gen.produced + " lines read");
    long n = 1;
    long previous = 0;
    TraceJob j;
    while ((j = jobs.next()) != null) {
      assertTrue(j.submitMs() >= previous);
      previous = j.submitMs();
      n++;
    }
    assertEquals(500_000, n);
    assertNull(jobs.next());
  }

  @Test
  void generatorSet_followsKueueNamingAndTiming() {
    List<PodSetSpec> one = List.of(PodSetSpec.of("main", 1, batchsim.core.model.Resources.wrap(new long[] {1000})));
    KueueGeneratorSet set = new KueueGeneratorSet("cq-0-0-cohort-0", "cq-0-0-cohort-0/cq-0-0-cohort-0", 1, 100, 2,
        List.of(new KueueGeneratorSet.Template("small", 200, 50, one),
            new KueueGeneratorSet.Template("tiny", 100, 10, one)), 1);
    List<WorkloadSpec> w = drain(set.open(new SplittableRandom(1)));
    assertEquals(List.of("cq-0-0-cohort-0/small-1-0-0", "cq-0-0-cohort-0/tiny-1-0-1", "cq-0-0-cohort-0/small-1-1-0",
        "cq-0-0-cohort-0/tiny-1-1-1"), w.stream().map(WorkloadSpec::id).toList());
    assertEquals(List.of(100L, 200L, 300L, 400L), w.stream().map(WorkloadSpec::createdMs).toList());
    assertEquals(50, w.get(0).priority());
    assertNotEquals(w.get(0).runtimeMs(), w.get(1).runtimeMs());
  }
}
