package batchsim.core.world.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Kueue's quantity strings: Kubernetes' canonical Quantity.String() of Kueue's ResourceFormatter formats. */
class KueueQuantityTest {
  @Test
  void cpu_isDecimalMilli() {
    assertEquals("0", KueueQuantity.format("cpu", 0));
    assertEquals("500m", KueueQuantity.format("cpu", 500));
    assertEquals("1500m", KueueQuantity.format("cpu", 1500));
    assertEquals("8", KueueQuantity.format("cpu", 8000));
    assertEquals("1k", KueueQuantity.format("cpu", 1_000_000));
  }

  @Test
  void memory_isCanonicalBinary_orDecimalWhenNotAMultipleOf1024() {
    assertEquals("64Gi", KueueQuantity.format("memory", 64L << 30));
    assertEquals("1536Mi", KueueQuantity.format("memory", 1536L << 20));
    assertEquals("1G", KueueQuantity.format("memory", 1_000_000_000L));
    assertEquals("1k", KueueQuantity.format("memory", 1000));
    assertEquals("1023", KueueQuantity.format("memory", 1023));
    assertEquals("2Ki", KueueQuantity.format("ephemeral-storage", 2048));
    assertEquals("1Gi", KueueQuantity.format("hugepages-2Mi", 1L << 30));
  }

  @Test
  void otherResources_areDecimalUnits() {
    assertEquals("8", KueueQuantity.format("nvidia.com/gpu", 8));
    assertEquals("110", KueueQuantity.format("pods", 110));
    assertEquals("2k", KueueQuantity.format("pods", 2000));
    assertEquals("1024", KueueQuantity.format("example.com/memory", 1024)); // Kueue: binary only for known names
  }
}
