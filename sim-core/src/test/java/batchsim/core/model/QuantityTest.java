package batchsim.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuantityTest {
  @ParameterizedTest(name = "{0} {1} = {2}")
  @CsvSource({
      "cpu, 500m, 500",
      "cpu, 2, 2000",
      "cpu, 1.5, 1500",
      "cpu, 0.25, 250",
      "memory, 64Gi, 68719476736",
      "memory, 1Mi, 1048576",
      "memory, 1k, 1000",
      "memory, 1G, 1000000000",
      "memory, 1e3, 1000",
      "nvidia.com/gpu, 8, 8",
      "pods, 110, 110",
      "ephemeral-storage, 10Gi, 10737418240"})
  void parse_kubernetesQuantities_toBaseUnits(String resource, String text, long expected) {
    assertEquals(expected, Quantity.parse(resource, text));
  }

  @Test
  void parse_fractionOfAUnit_isRejectedNotRounded() {
    var e = assertThrows(IllegalArgumentException.class, () -> Quantity.parse("nvidia.com/gpu", "0.5"));
    assertTrue(e.getMessage().contains("not a whole number of units"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Quantity.parse("cpu", "0.5m"));
  }

  @Test
  void parse_garbageAndNegatives_areRejected() {
    assertThrows(IllegalArgumentException.class, () -> Quantity.parse("cpu", "lots"));
    assertThrows(IllegalArgumentException.class, () -> Quantity.parse("cpu", "-1"));
    assertThrows(IllegalArgumentException.class, () -> Quantity.parse("memory", "12Xi"));
  }

  @Test
  void format_roundTripsForPeople() {
    assertEquals("1.5", Quantity.format("cpu", 1500));
    assertEquals("64Gi", Quantity.format("memory", 64L << 30));
    assertEquals("8", Quantity.format("nvidia.com/gpu", 8));
  }
}
