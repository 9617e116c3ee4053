package batchsim.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

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
      "nvidia.com/gpu, 2000m, 2",
      "nvidia.com/gpu, 1e1, 10",
      "pods, 110, 110",
      "ephemeral-storage, 10Gi, 10737418240"})
  void parse_kubernetesQuantities_toBaseUnits(String resource, String text, long expected) {
    assertEquals(expected, Quantity.parse(resource, text));
  }

  /**
   * Every valid input of Kubernetes' own table (k8s.io/apimachinery pkg/api/resource/quantity_test.go,
   * TestQuantityParse, at eed236ce), read as bytes (Value(): rounded up to a whole byte) and as cpu
   * (MilliValue(): rounded up to a whole milli-core; 5n and 0.9n are 1m). Kubernetes saturates 12E at
   * 2^63-1 (and 9Ei, 9223372036854775807Ki, left out here); batchsim refuses what no long holds.
   */
  @ParameterizedTest(name = "{0} = {1} bytes, {2} millicores")
  @CsvSource({
      "0, 0, 0", "0n, 0, 0", "0u, 0, 0", "0m, 0, 0", "0Ki, 0, 0", "0k, 0, 0", "0Mi, 0, 0", "0M, 0, 0",
      "0Gi, 0, 0", "0G, 0, 0", "0Ti, 0, 0", "0T, 0, 0",
      "1, 1, 1000",
      "1Ki, 1024, 1024000", "8Ki, 8192, 8192000", "7Mi, 7340032, 7340032000", "6Gi, 6442450944, 6442450944000",
      "5Ti, 5497558138880, 5497558138880000", "4Pi, 4503599627370496, 4503599627370496000",
      "3Ei, 3458764513820540928, too large", "10Ti, 10995116277760, 10995116277760000",
      "100Ti, 109951162777600, 109951162777600000",
      "5n, 1, 1", "4u, 1, 1", "3m, 1, 3", "9, 9, 9000", "8k, 8000, 8000000", "50k, 50000, 50000000",
      "7M, 7000000, 7000000000", "6G, 6000000000, 6000000000000", "5T, 5000000000000, 5000000000000000",
      "40T, 40000000000000, 40000000000000000", "300T, 300000000000000, 300000000000000000",
      "2P, 2000000000000000, 2000000000000000000", "1E, 1000000000000000000, too large",
      "1E-3, 1, 1", "1e3, 1000, 1000000", "1E6, 1000000, 1000000000", "1e9, 1000000000, 1000000000000",
      "1E12, 1000000000000, 1000000000000000", "1e15, 1000000000000000, 1000000000000000000",
      "1E18, 1000000000000000000, too large", "1e14, 100000000000000, 100000000000000000",
      "1e13, 10000000000000, 10000000000000000", "100.035k, 100035, 100035000",
      "0.001, 1, 1", "0.0005k, 1, 500", "0.005, 1, 5", "0.05, 1, 50", "0.5, 1, 500", "0.00050k, 1, 500",
      "0.00500, 1, 5", "0.05000, 1, 50", "0.50000, 1, 500", "0.5e0, 1, 500", "0.5e-1, 1, 50", "0.5e-2, 1, 5",
      "10.035M, 10035000, 10035000000", "1.2e3, 1200, 1200000", "1.3E+6, 1300000, 1300000000",
      "1.40e9, 1400000000, 1400000000000", "1.53E12, 1530000000000, 1530000000000000",
      "1.6e15, 1600000000000000, 1600000000000000000", "1.7E18, 1700000000000000000, too large",
      "9.01, 10, 9010", "8.1k, 8100, 8100000", "7.123456M, 7123456, 7123456000",
      "6.987654321G, 6987654321, 6987654321000", "5.444T, 5444000000000, 5444000000000000",
      "40.1T, 40100000000000, 40100000000000000", "300.2T, 300200000000000, 300200000000000000",
      "2.5P, 2500000000000000, 2500000000000000000", "1.01E, 1010000000000000000, too large",
      "3.001n, 1, 1", "1.1E-9, 1, 1", "0.0000000001, 1, 1", "0.0000000005, 1, 1", "0.00000000050, 1, 1",
      "0.5e-9, 1, 1", "0.9n, 1, 1", "0.00000012345, 1, 1", "0.00000012354, 1, 1",
      "12E, too large, too large",
      "100.035Ki, 102436, 102435840", "0.5Mi, 524288, 524288000", "0.05Gi, 53687092, 53687091200",
      "0.025Ti, 27487790695, 27487790694400", "0.000000000001Ki, 1, 1",
      ".001, 1, 1", ".0001k, 1, 100", "1., 1, 1000", "1.G, 1000000000, 1000000000000"})
  void parse_kubernetesTable_roundsUpAsKubernetes(String text, String bytes, String millicores) {
    for (String[] c : new String[][] {{"memory", bytes}, {"cpu", millicores}}) {
      for (String form : new String[] {text, "+" + text}) { // Kubernetes' test tries each with an explicit +
        if (c[1].equals("too large")) {
          var e = assertThrows(IllegalArgumentException.class, () -> Quantity.parse(c[0], form));
          assertTrue(e.getMessage().endsWith("is too large"), e.getMessage());
        } else {
          assertEquals(Long.parseLong(c[1]), Quantity.parse(c[0], form), c[0] + " " + form);
        }
      }
      if (!c[1].equals("0")) { // and each negated: no request or quota can be negative
        var e = assertThrows(IllegalArgumentException.class, () -> Quantity.parse(c[0], "-" + text));
        assertTrue(e.getMessage().endsWith("must not be negative"), e.getMessage());
      } else {
        assertEquals(0, Quantity.parse(c[0], "-" + text));
      }
    }
  }

  /** Kubernetes' invalid inputs (same test), plus forms with no digit. */
  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1",
      "1 ", "lots", "12Xi", "1e", "1K", "k", "Mi", "+", ".", "1e3.5", "1E+", "0x10"})
  void parse_notAKubernetesQuantity_isRejected(String text) {
    var e = assertThrows(IllegalArgumentException.class, () -> Quantity.parse("memory", text));
    assertEquals("'" + text + "' is not a Kubernetes quantity (e.g. 500m, 4, 64Gi)", e.getMessage());
  }

  @Test
  void parse_fractionOfAUnit_isRejectedNotRounded() {
    var e = assertThrows(IllegalArgumentException.class, () -> Quantity.parse("nvidia.com/gpu", "0.5"));
    assertEquals("quantity '0.5' of nvidia.com/gpu is not a whole number of units", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Quantity.parse("pods", "1n"));
  }

  @Test
  void parse_hugeExponents_areTooLargeOrOneBaseUnit_withoutExpandingThem() {
    assertEquals(1, Quantity.parse("cpu", "1e-999999999999"));
    assertEquals(1, Quantity.parse("memory", "5E-30"));
    assertEquals(0, Quantity.parse("memory", "0e999999999999"));
    var e = assertThrows(IllegalArgumentException.class, () -> Quantity.parse("memory", "1e999999999999"));
    assertEquals("quantity '1e999999999999' of memory is too large", e.getMessage());
    assertEquals(Long.MAX_VALUE, Quantity.parse("memory", "9223372036854775807"));
    assertThrows(IllegalArgumentException.class, () -> Quantity.parse("memory", "9223372036854775808"));
  }

  @Test
  void parse_emptyAndNegatives_areRejected() {
    assertEquals("empty quantity", assertThrows(IllegalArgumentException.class, () -> Quantity.parse("cpu", ""))
        .getMessage());
    assertThrows(IllegalArgumentException.class, () -> Quantity.parse("cpu", "-1"));
    assertThrows(IllegalArgumentException.class, () -> Quantity.parse("cpu", "-1n"));
  }

  @Test
  void format_roundTripsForPeople() {
    assertEquals("1.5", Quantity.format("cpu", 1500));
    assertEquals("64Gi", Quantity.format("memory", 64L << 30));
    assertEquals("8", Quantity.format("nvidia.com/gpu", 8));
  }
}
