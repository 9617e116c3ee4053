package batchsim.core.volcano;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Volcano's api.Resource helpers (resource_info.go), rule by rule. */
class ResTest {
  // dims: cpu, memory, pods, nvidia.com/gpu (milli-units)
  static final Dims DIMS = new Dims(Fixture.RES, List.of());
  static final int PODS = DIMS.pods;
  static final int GPU = DIMS.index("nvidia.com/gpu");

  static Res r(double cpu, double mem) {
    Res x = new Res(DIMS.size());
    x.v[0] = cpu;
    x.v[1] = mem;
    return x;
  }

  @Test
  void lessEqualWithDimension_onlyComparesRequestedDimensions() {
    Res used = r(1000, 3e9);
    Res cap = r(2000, 2e9);
    Res cpuOnly = r(1000, 0);
    assertTrue(used.copy().add(cpuOnly).lessEqualWithDimension(cap, cpuOnly, PODS), "memory over cap is not asked");
    Res both = r(1000, 1e9);
    assertFalse(used.copy().add(both).lessEqualWithDimension(cap, both, PODS));
  }

  @Test
  void lessEqualWithDimension_skipsPodsAndTreatsMissingScalarsAsZero() {
    Res req = r(0, 0);
    req.setScalar(PODS, 5);
    req.setScalar(GPU, 1000);
    Res cap = r(1, 1);
    cap.setScalar(PODS, 1);
    assertFalse(req.lessEqualWithDimension(cap, req, PODS), "gpu missing on the cap side counts as 0");
    cap.setScalar(GPU, 1000);
    assertTrue(req.lessEqualWithDimension(cap, req, PODS), "pods are not a quota dimension");
  }

  @Test
  void exceededPart_keepsOnlyWhatExceeds() {
    Res total = r(8000, 8e9);
    total.setScalar(PODS, 11);
    Res guarantee = r(2000, 0);
    Res rest = Res.exceededPart(total, guarantee);
    assertEquals(6000, rest.get(0));
    assertEquals(8e9, rest.get(1));
    assertEquals(11, rest.get(PODS));
    Res none = Res.exceededPart(r(1, 1), r(1, 1));
    assertFalse(none.has(PODS));
  }

  @Test
  void minDimension_infinityKeepsScalarsTheOtherSideLacks_zeroClearsThem() {
    Res a = r(4000, 4e9);
    a.setScalar(GPU, 3000);
    Res cap = r(2000, 8e9);
    assertEquals(3000, a.copy().minDimension(cap, true).get(GPU));
    assertEquals(0, a.copy().minDimension(cap, false).get(GPU));
    assertEquals(2000, a.copy().minDimension(cap, true).get(0));
  }

  @Test
  void greaterPartlyWithRelevantDimensions_ignoresZeroCpuMemoryAndAbsentScalars() {
    Res alloc = r(4000, 0);
    alloc.setScalar(GPU, 2000);
    Res req = r(2000, 0);
    req.setScalar(GPU, 1000);
    Res deservedNoGpu = r(0, 0);
    assertFalse(alloc.greaterPartlyWithRelevantDimensions(deservedNoGpu, req, PODS));
    Res deservedZeroGpu = r(0, 0);
    deservedZeroGpu.setScalar(GPU, 0);
    assertTrue(alloc.greaterPartlyWithRelevantDimensions(deservedZeroGpu, req, PODS));
  }

  @Test
  void lessEqualPartlyZeroFiltered_needsOneDimensionWithinDeserved() {
    Res future = r(3000, 3e9);
    future.setScalar(PODS, 1);
    Res deserved = r(0, 0);
    deserved.setScalar(PODS, 2);
    Res req = future.copy();
    assertFalse(future.lessEqualPartlyWithDimensionZeroFiltered(deserved, req, PODS), "pods do not count");
    Res d2 = r(4000, 0);
    assertTrue(future.lessEqualPartlyWithDimensionZeroFiltered(d2, req, PODS));
  }

  @Test
  void max_andIsEmpty_ignorePods() {
    Res a = r(0, 0);
    a.setScalar(PODS, 3);
    assertTrue(a.isEmpty(PODS));
    Res m = Res.max(a, r(5, 0));
    assertEquals(5, m.get(0));
    assertEquals(3, m.get(PODS));
  }

  @Test
  void diff_splitsIncreasedAndDecreased() {
    Res a = r(3, 1);
    a.setScalar(GPU, 2);
    Res b = r(1, 4);
    Res[] d = a.diff(b, false);
    assertEquals(2, d[0].get(0));
    assertEquals(3, d[1].get(1));
    assertEquals(2, d[0].get(GPU));
  }

  @Test
  void sub_leavesScalarsAloneWhenThereAreNone() {
    Res a = r(3, 1);
    Res b = r(1, 1);
    b.setScalar(PODS, 1);
    a.sub(b);
    assertFalse(a.has(PODS), "Volcano's sub skips scalars when the left side has no scalar map");
  }
}
