package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class FormatsTest {
  @Test
  void humanDurations() {
    assertEquals("0ms", Formats.humanDuration(0));
    assertEquals("850ms", Formats.humanDuration(850));
    assertEquals("1.0s", Formats.humanDuration(1_000));
    assertEquals("59.9s", Formats.humanDuration(59_999));
    assertEquals("4m12s", Formats.humanDuration(252_345));
    assertEquals("2h05m", Formats.humanDuration(7_500_000));
    assertEquals("3d04h", Formats.humanDuration(3 * 86_400_000L + 4 * 3_600_000L + 59_000));
  }

  @Test
  void rounding() {
    assertEquals("0.123456", Formats.round(0.1234565, 6).toPlainString()); // HALF_EVEN
    assertEquals("0.123458", Formats.round(0.1234575, 6).toPlainString());
    assertEquals("100", Formats.round(100.0, 6).toPlainString());
    assertEquals("0", Formats.round(-0.0, 6).toPlainString());
    assertEquals("0", Formats.round(1e-9, 6).toPlainString());
    assertNull(Formats.round(Double.NaN, 6));
    assertNull(Formats.round(Double.NEGATIVE_INFINITY, 6));
  }

  @Test
  void percentAndHex() {
    assertEquals("19.3%", Formats.percent(0.1929));
    assertEquals("-", Formats.percent(Double.NaN));
    assertEquals("inf", Formats.percent(Double.POSITIVE_INFINITY));
    assertEquals("00ff7f", Formats.hex(new byte[] {0, (byte) 0xff, 0x7f}));
  }
}
