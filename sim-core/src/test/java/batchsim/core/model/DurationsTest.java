package batchsim.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DurationsTest {
  @ParameterizedTest(name = "{0} = {1} ms")
  @CsvSource({"500ms, 500", "30s, 30000", "45m, 2700000", "2h, 7200000", "7d, 604800000", "1h30m, 5400000",
      "1.5h, 5400000", "1w, 604800000", "0, 0", "2m30s, 150000"})
  void parseMillis_units(String text, long ms) {
    assertEquals(ms, Durations.parseMillis(text));
  }

  @Test
  void parseMillis_bareNumberOrUnknownUnit_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> Durations.parseMillis("30"));
    assertThrows(IllegalArgumentException.class, () -> Durations.parseMillis("3y"));
    assertThrows(IllegalArgumentException.class, () -> Durations.parseMillis("h"));
    assertThrows(IllegalArgumentException.class, () -> Durations.parseMillis("0.5ms"));
  }

  @Test
  void format_isCompactAndLossless() {
    assertEquals("1h30m", Durations.format(5_400_000));
    assertEquals("2s500ms", Durations.format(2_500));
    assertEquals("0s", Durations.format(0));
    assertEquals(90061001L, Durations.parseMillis(Durations.format(90061001L)));
  }
}
