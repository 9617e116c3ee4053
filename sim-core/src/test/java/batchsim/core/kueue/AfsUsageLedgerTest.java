package batchsim.core.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.AdmissionFairSharing;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kueue's admission-fair-sharing arithmetic: decay, entry penalties, settlement and weighted usage. */
class AfsUsageLedgerTest {
  private static final long MIN = 60_000;

  private static AfsUsageLedger ledger(long halfLife, long sampling, Map<String, Double> weights) {
    return new AfsUsageLedger(new AdmissionFairSharing(halfLife, sampling, weights));
  }

  private static Map<String, BigDecimal> cpu(String v) {
    return Map.of("cpu", new BigDecimal(v));
  }

  @Test
  void alpha_isHalfAfterOneHalfLifeAndZeroWithoutHalfLife() {
    assertEquals(0.5, AfsUsageLedger.alpha(10 * MIN, 10 * MIN));
    assertEquals(0.75, AfsUsageLedger.alpha(20 * MIN, 10 * MIN));
    assertEquals(0.0, AfsUsageLedger.alpha(5 * MIN, 0));
  }

  @Test
  void mulByFloat_roundsDownToNineDecimals() {
    // 4 × 0.29289321881345254 (α of 5m with a 10m half-life) = 1.17157287525381016
    assertEquals(new BigDecimal("1.171572875"),
        AfsUsageLedger.mulByFloat(cpu("4"), AfsUsageLedger.alpha(5 * MIN, 10 * MIN)).get("cpu"));
  }

  @Test
  void penalty_countsUntilSettledThenBecomesConsumedUsage() {
    AfsUsageLedger l = ledger(10 * MIN, 5 * MIN, Map.of());
    l.ensure("ns/a", 0);
    l.pushPenalty("ns/a", "w1", cpu("4"), 0);
    assertEquals(1.171572875, l.usage("ns/a", 1), 1e-12);
    l.pushPenalty("ns/a", "w1", cpu("4"), 0); // re-pushed: replaces, never stacks
    assertEquals(1.171572875, l.usage("ns/a", 1), 1e-12);
    l.settle("ns/a", "w1", cpu("4"), 0); // no time elapsed: nothing of the admitted usage folds in yet
    assertEquals(new BigDecimal("1.171572875"), l.consumed("ns/a").get("cpu"));
    assertTrue(l.pendingPenalty("ns/a").isEmpty());
    assertEquals(1.171572875, l.usage("ns/a", 1), 1e-12);
  }

  @Test
  void sample_decaysTowardsTheAdmittedUsageByTheHalfLife() {
    AfsUsageLedger l = ledger(10 * MIN, 5 * MIN, Map.of());
    l.ensure("ns/a", 0);
    l.pushPenalty("ns/a", "w1", cpu("4"), 0);
    l.settle("ns/a", "w1", cpu("4"), 0);
    assertEquals(5 * MIN, l.nextDueMs());
    assertEquals(java.util.List.of(), l.due(5 * MIN - 1));
    l.sample("ns/a", cpu("4"), 10 * MIN); // one half-life: half the old, half the admitted usage
    assertEquals(new BigDecimal("2.585786437"), l.consumed("ns/a").get("cpu"));
    assertEquals(10 * MIN, l.lastUpdateMs("ns/a"));
    l.sample("ns/a", cpu("0"), 20 * MIN);
    assertEquals(new BigDecimal("1.292893218"), l.consumed("ns/a").get("cpu").stripTrailingZeros());
  }

  @Test
  void zeroHalfLife_resetsConsumedUsageAndChargesNoPenalty() {
    AfsUsageLedger l = ledger(0, MIN, Map.of());
    l.pushPenalty("ns/a", "w1", cpu("4"), 0);
    assertEquals(0.0, l.usage("ns/a", 1));
    l.settle("ns/a", "w1", cpu("4"), 0);
    l.sample("ns/a", cpu("4"), MIN);
    assertTrue(l.consumed("ns/a").isEmpty());
  }

  @Test
  void dropped_penaltyNoLongerCounts_andUnknownWorkloadIsANoOp() {
    AfsUsageLedger l = ledger(10 * MIN, 5 * MIN, Map.of());
    l.pushPenalty("ns/a", "w1", cpu("4"), 0);
    assertFalse(l.subPenalty("ns/a", "w2"));
    assertFalse(l.subPenalty("ns/b", "w1"));
    assertTrue(l.subPenalty("ns/a", "w1"));
    assertEquals(0.0, l.usage("ns/a", 1));
  }

  @Test
  void usage_weighsResourcesAndDividesByTheLocalQueueWeight() {
    AfsUsageLedger l = ledger(MIN, MIN, Map.of("memory", 0.0, "nvidia.com/gpu", 2.0));
    l.ensure("ns/a", 0);
    l.settle("ns/a", "none", Map.of("cpu", new BigDecimal("3"), "memory", new BigDecimal("1073741824"),
        "nvidia.com/gpu", new BigDecimal("2")), MIN); // one half-life: half of each
    assertEquals(1.5 + 0 + 2 * 1.0, l.usage("ns/a", 1), 1e-12);
    assertEquals((1.5 + 2.0) / 2, l.usage("ns/a", 2), 1e-12);
    assertEquals(Double.POSITIVE_INFINITY, l.usage("ns/a", 0));
  }
}
