package batchsim.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.Resources;
import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WorkloadClassTest {
  private static final List<PodSetSpec> ONE_POD = List.of(PodSetSpec.of("main", 1, Resources.wrap(new long[] {1000})));

  private static List<WorkloadSpec> drain(WorkloadSource s) {
    List<WorkloadSpec> out = new ArrayList<>();
    WorkloadSpec w;
    while ((w = s.next()) != null) {
      out.add(w);
    }
    return out;
  }

  @Test
  void fixedInterval_countLimit_idsAndTimes() {
    WorkloadClass c = new WorkloadClass("small", "lq", 50, null, ONE_POD, new Distribution.Constant(200),
        new ArrivalProcess.FixedInterval(100), 0, 3, Long.MAX_VALUE);
    List<WorkloadSpec> w = drain(c.open(new SplittableRandom(1)));
    assertEquals(List.of("small-1", "small-2", "small-3"), w.stream().map(WorkloadSpec::id).toList());
    // Kueue's generator sleeps before each creation: the first arrives one interval after the start.
    assertEquals(List.of(100L, 200L, 300L), w.stream().map(WorkloadSpec::createdMs).toList());
    assertEquals(50, w.get(0).priority());
    assertEquals(200, w.get(0).runtimeMs());
  }

  @Test
  void poisson_untilHorizon_meanGapMatchesRate() {
    WorkloadClass c = new WorkloadClass("p", "lq", 0, null, ONE_POD, new Distribution.Constant(1),
        new ArrivalProcess.Poisson(1_000), 0, WorkloadClass.UNLIMITED, 10_000_000);
    List<WorkloadSpec> w = drain(c.open(new SplittableRandom(7)));
    // 10,000 s at one per second: expect ~10,000 arrivals (Poisson sd = 100).
    assertTrue(Math.abs(w.size() - 10_000) < 400, "got " + w.size());
    for (int i = 1; i < w.size(); i++) {
      assertTrue(w.get(i).createdMs() >= w.get(i - 1).createdMs());
    }
    assertTrue(w.get(w.size() - 1).createdMs() < 10_000_000);
  }

  @Test
  void explicitTimes_areOffsetsFromStart() {
    WorkloadClass c = new WorkloadClass("e", "lq", 0, null, ONE_POD, new Distribution.Constant(1),
        new ArrivalProcess.ExplicitTimes(List.of(0L, 5_000L)), 60_000, WorkloadClass.UNLIMITED, Long.MAX_VALUE);
    List<WorkloadSpec> w = drain(c.open(new SplittableRandom(1)));
    assertEquals(List.of(60_000L, 65_000L), w.stream().map(WorkloadSpec::createdMs).toList());
  }

  @Test
  void sameSeed_sameStream_differentSeed_differentStream() {
    WorkloadClass c = new WorkloadClass("p", "lq", 0, null, ONE_POD, new Distribution.Exponential(60_000),
        new ArrivalProcess.Poisson(1_000), 0, 100, Long.MAX_VALUE);
    assertEquals(drain(c.open(new SplittableRandom(3))), drain(c.open(new SplittableRandom(3))));
    assertTrue(!drain(c.open(new SplittableRandom(3))).equals(drain(c.open(new SplittableRandom(4)))));
  }

  @Test
  void logNormal_medianAndP99_matchTheirDefinition() {
    Distribution d = new Distribution.LogNormal(1_800_000, 21_600_000);
    SplittableRandom r = new SplittableRandom(11);
    long[] s = new long[200_000];
    for (int i = 0; i < s.length; i++) {
      s[i] = d.sample(r);
    }
    Arrays.sort(s);
    double median = s[s.length / 2];
    double p99 = s[(int) (s.length * 0.99)];
    assertTrue(Math.abs(median / 1_800_000 - 1) < 0.02, "median " + median);
    assertTrue(Math.abs(p99 / 21_600_000 - 1) < 0.05, "p99 " + p99);
  }

  @Test
  void distributions_rejectNonsense() {
    assertThrows(IllegalArgumentException.class, () -> new Distribution.Exponential(0));
    assertThrows(IllegalArgumentException.class, () -> new Distribution.LogNormal(10, 5));
    assertThrows(IllegalArgumentException.class, () -> new Distribution.Uniform(5, 1));
    assertThrows(IllegalArgumentException.class, () -> new ArrivalProcess.ExplicitTimes(List.of(5L, 1L)));
  }

  @Test
  void workloadList_replaysInCreationOrder() {
    WorkloadSpec late = new WorkloadSpec("late", null, "lq", 500, 0, null, ONE_POD, 1);
    WorkloadSpec early = new WorkloadSpec("early", null, "lq", 100, 0, null, ONE_POD, 1);
    WorkloadSource s = WorkloadList.of("list", List.of(late, early)).open(new SplittableRandom(1));
    assertEquals("early", s.next().id());
    assertEquals("late", s.next().id());
    assertNull(s.next());
  }
}
