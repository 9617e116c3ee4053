package batchsim.scenarios.overrides;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import batchsim.scenarios.overrides.SetPath.Segment;
import java.util.List;
import org.junit.jupiter.api.Test;

class SetPathTest {
  @Test
  void dotsSeparateAndBracketsKeepDots() {
    assertEquals(List.of(new Segment("cluster", false), new Segment("nodePools", false), new Segment("gpu", false),
        new Segment("allocatable", false), new Segment("nvidia.com/gpu", true)),
        SetPath.parse("cluster.nodePools.gpu.allocatable[nvidia.com/gpu]").segments());
    assertEquals(List.of(new Segment("a", false), new Segment("0", true), new Segment("b", false)),
        SetPath.parse("a[0].b").segments());
    assertEquals(List.of(new Segment("a", true), new Segment("b", true)), SetPath.parse("[a][b]").segments());
  }

  @Test
  void malformedPaths_sayWhatIsWrong() {
    assertEquals("empty path", assertThrows(IllegalArgumentException.class, () -> SetPath.parse("")).getMessage());
    assertEquals("path ends with '.'",
        assertThrows(IllegalArgumentException.class, () -> SetPath.parse("a.")).getMessage());
    assertEquals("empty part at character 3",
        assertThrows(IllegalArgumentException.class, () -> SetPath.parse("a..b")).getMessage());
    assertEquals("unclosed '[' at character 2",
        assertThrows(IllegalArgumentException.class, () -> SetPath.parse("a[b")).getMessage());
    assertEquals("expected '.' or '[' after ']' at character 5",
        assertThrows(IllegalArgumentException.class, () -> SetPath.parse("a[b]c")).getMessage());
  }
}
