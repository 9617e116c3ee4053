package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;

class WaitsHlogTest {
  private static byte[] write() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    WaitsHlog.write(Fixtures.result(10_800_000), Fixtures.META, out);
    return out.toByteArray();
  }

  @Test
  void parsesBackWithTagsAndCounts() throws IOException {
    byte[] log = write();
    HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(log));
    List<String> tags = new ArrayList<>();
    List<Long> counts = new ArrayList<>();
    EncodableHistogram e;
    Histogram teamA = null;
    while ((e = reader.nextIntervalHistogram()) != null) {
      Histogram h = (Histogram) e;
      tags.add(h.getTag());
      counts.add(h.getTotalCount());
      assertEquals(0, h.getStartTimeStamp());
      assertEquals(7_200_000, h.getEndTimeStamp()); // the run's end, in ms
      if ("rsv.team-a".equals(h.getTag())) {
        teamA = h;
      }
    }
    assertEquals(0.0, reader.getStartTimeSec());
    assertEquals(List.of("rsv.team-a", "rsv.team-b", "rsv.*", "start.team-a", "start.team-b",
        "start.*"), tags);
    assertEquals(List.of(10L, 0L, 10L, 3L, 0L, 3L), counts);
    assertEquals(500, teamA.getValueAtPercentile(50));
    assertEquals(1000, teamA.getMaxValue());
  }

  @Test
  void headerHasNoWallClockTime() throws IOException {
    String text = new String(write(), StandardCharsets.UTF_8);
    List<String> comments = text.lines().filter(l -> l.startsWith("#")).toList();
    assertEquals("#[Histogram log format version 1.3]", comments.get(0));
    assertEquals("#[StartTime: 0.000 (seconds since epoch), Thu Jan 01 00:00:00 UTC 1970]",
        comments.get(1));
    assertEquals("#[BaseTime: 0.000 (seconds since epoch)]", comments.get(2));
    String year = Integer.toString(java.time.Year.now().getValue());
    assertFalse(text.contains(year), "the current year appears in the log");
    assertTrue(text.contains("\n\"StartTimestamp\",\"Interval_Length\""));
  }

  @Test
  void resultHistogramsAreNotTagged() throws IOException {
    var r = Fixtures.result(10_800_000);
    WaitsHlog.write(r, Fixtures.META, new ByteArrayOutputStream());
    assertEquals(null, r.queues().get(0).timeToReservation().getTag());
  }

  @Test
  void tagsCannotBreakTheFormat() {
    assertEquals("rsv.a_b_c", WaitsHlog.tag("rsv.a,b c"));
  }
}
