package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.SimulationSpec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTableTest {
  private static final String TEXT = SummaryTable.render(Fixtures.result(10_800_000), Fixtures.META);

  private static List<String> lines() {
    return Arrays.asList(TEXT.split("\n", -1));
  }

  /** The single line starting with {@code prefix} after {@code section}, split on runs of spaces. */
  private static List<String> row(String section, String prefix) {
    List<String> lines = lines();
    int from = lines.indexOf(section);
    assertTrue(from >= 0, "no section " + section + " in\n" + TEXT);
    return lines.subList(from, lines.size()).stream()
        .filter(l -> l.startsWith(prefix))
        .findFirst()
        .map(l -> Arrays.asList(l.trim().split(" {2,}")))
        .orElseThrow(() -> new AssertionError("no row " + prefix + " in\n" + TEXT));
  }

  @Test
  void header() {
    assertTrue(TEXT.startsWith("batchsim 0.1.0-test | scenario demo\n"), TEXT);
    assertTrue(TEXT.contains("  file     examples/demo.yaml (sha256 0123456789ab)\n"), TEXT);
    assertTrue(TEXT.contains("  seed     42\n"));
    assertTrue(TEXT.contains("  span     2h (horizon 3h)\n"), TEXT);
    assertTrue(TEXT.contains("  events   123,456\n"));
    assertTrue(TEXT.contains("  warning  arrivals to unknown LocalQueues: 1\n"), TEXT);
    String noHorizon = SummaryTable.render(Fixtures.result(SimulationSpec.NO_HORIZON), Fixtures.META);
    assertTrue(noHorizon.contains("  span     2h (no horizon)\n"), noHorizon);
  }

  @Test
  void countRows() {
    String section = "Workloads (pending = still waiting for quota at the end)";
    assertEquals(List.of("team-a", "10", "9", "1", "1", "2", "1"), row(section, "  team-a"));
    assertEquals(List.of("team-b", "2", "0", "0", "2", "0", "0"), row(section, "  team-b"));
    assertEquals(List.of("*", "12", "9", "1", "3", "2", "1"), row(section, "  *"));
  }

  @Test
  void waitRows() {
    String section = "Wait times (RSV = created to quota reserved, START = created to running)";
    assertEquals(List.of("team-a", "500ms", "1.0s", "1.0s", "1.0s", "4m12s", "1h00m"),
        row(section, "  team-a"));
    assertEquals(List.of("team-b", "-", "-", "-", "-", "-", "-"), row(section, "  team-b"));
    assertEquals("*", row(section, "  *").get(0));
  }

  @Test
  void utilizationAndQuotaRows() {
    String util = "Utilization (time-weighted means)";
    assertEquals(List.of("default", "cpu", "cores", "12.35", "64.00", "19.3%", "40.00"),
        row(util, "  default  cpu"));
    assertEquals(List.of("default", "memory", "GiB", "3.00", "128.00", "2.3%", "64.00"),
        row(util, "  default  memory"));
    assertEquals(List.of("h100", "nvidia.com/gpu", "units", "0.00", "0.00", "-", "0"),
        row(util, "  h100"));
    String quota = "Quota usage (time-weighted means; BORROWED = mean above nominal)";
    assertEquals(List.of("team-a", "default", "cpu", "cores", "32.00", "16.00", "50.0%", "0.00",
        "40.00"), row(quota, "  team-a"));
    assertEquals(List.of("team-b", "h100", "nvidia.com/gpu", "units", "0", "1.50", "inf", "1.50",
        "4"), row(quota, "  team-b"));
  }

  @Test
  void plainAlignedAndNarrow() {
    for (String line : lines()) {
      assertTrue(line.length() <= 100, "too wide: " + line);
      assertFalse(line.endsWith(" "), "trailing space: '" + line + "'");
      assertTrue(line.chars().allMatch(c -> c >= 0x20 && c < 0x7f), "not plain ASCII: " + line);
    }
    // Right-aligned numbers: every row of a table has the same length up to its last column.
    String section = "Workloads (pending = still waiting for quota at the end)";
    assertEquals(lineAfter(section, "  team-a").length(), lineAfter(section, "  *").length());
  }

  private static String lineAfter(String section, String prefix) {
    List<String> lines = lines();
    return lines.subList(lines.indexOf(section), lines.size()).stream()
        .filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
  }

  @Test
  void deterministic() {
    assertEquals(TEXT, SummaryTable.render(Fixtures.result(10_800_000), Fixtures.META));
  }
}
