package batchsim.core.world.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Shapes of the status record that need no run. */
class WorkloadStatusTest {
  @Test
  void topologyValues_areKueuesSingleCompactEncoding() {
    assertEquals(Map.of("universal", "rack-1"), WorkloadStatus.compactValues(List.of("rack-1", "rack-1")));
    assertEquals(Map.of("individual", Map.of("prefix", "gpu-r0-", "roots", List.of("0", "1", "12"))),
        WorkloadStatus.compactValues(List.of("gpu-r0-0", "gpu-r0-1", "gpu-r0-12")));
    assertEquals(Map.of("individual", Map.of("prefix", "n", "suffix", "-a", "roots", List.of("1", "2"))),
        WorkloadStatus.compactValues(List.of("n1-a", "n2-a")));
    // Kueue's motivating example: prefix and suffix must not overlap.
    assertEquals(Map.of("individual", Map.of("suffix", "aba", "roots", List.of("ab", ""))),
        WorkloadStatus.compactValues(List.of("ababa", "aba")));
  }

  @Test
  void times_areWholeSecondsFromTheEpoch() {
    assertEquals("1970-01-01T00:00:00Z", WorkloadStatus.time(999));
    assertEquals("1970-01-01T01:00:01Z", WorkloadStatus.time(3_601_500));
  }
}
