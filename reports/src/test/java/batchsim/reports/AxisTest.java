package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class AxisTest {
  @Test
  void niceSteps() {
    assertEquals(1, Axis.niceStep(5, 5), 0);
    assertEquals(2, Axis.niceStep(9, 5), 0);
    assertEquals(500, Axis.niceStep(2_048, 5), 0);
    assertEquals(0.05, Axis.niceStep(0.2, 4), 1e-12);
    assertEquals(1_800_000, Axis.durationStep(7_200_000, 4));      // 2h in ≤4 steps: 30m
    assertEquals(10_800_000, Axis.durationStep(113_100_000, 12));   // 31h25m in ≤12: 3h
  }

  @Test
  void timeAndDurationLabels() {
    Axis t = Axis.time(113_100_000, 12);
    assertEquals("0", t.labels().get(0));
    assertEquals("3h", t.labels().get(1));
    assertEquals("1d", t.labels().get(8));
    assertEquals("1d3h", t.labels().get(9));
    assertEquals(113_100_000, t.max(), 0);
    Axis d = Axis.duration(31_178_751, 5, "wait"); // 8h39m → top rounded up to 10h
    assertEquals(36_000_000, d.max(), 0);
    assertEquals(List.of("0", "2h", "4h", "6h", "8h", "10h"), d.labels());
  }

  @Test
  void percentAndCounts() {
    assertEquals(List.of("0%", "25%", "50%", "75%", "100%"), Axis.percent(0.7, "u").labels());
    assertEquals(List.of("0", "1", "2", "3", "4"), Axis.count(4, 5, "w").labels());
    assertEquals(List.of("0", "1"), Axis.count(0, 5, "w").labels());
    assertEquals(List.of("0", "500", "1,000", "1,500"), Axis.amount(1_400, 4, "m", "GiB").labels());
  }

  @Test
  void percentileScale() {
    assertEquals(2, Axis.percentileToX(99), 1e-9);
    assertEquals(99.9, Axis.xToPercentile(3), 1e-9);
    assertEquals(List.of("0", "50", "90", "99", "99.9", "99.99"), Axis.percentile().labels());
  }
}
