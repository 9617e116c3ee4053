package batchsim.core.kueue;

import java.util.Arrays;
import java.util.TreeMap;

/**
 * A small sparse map FlavorResource → amount, sorted by fr so that iteration is deterministic. A
 * workload's quota usage touches a handful of frs, so two parallel arrays beat a dense vector.
 */
final class FrAmounts {
  static final FrAmounts EMPTY = new FrAmounts(new int[0], new long[0]);

  final int[] frs;
  final long[] amounts;

  private FrAmounts(int[] frs, long[] amounts) {
    this.frs = frs;
    this.amounts = amounts;
  }

  static FrAmounts of(TreeMap<Integer, Long> m) {
    int[] f = new int[m.size()];
    long[] a = new long[m.size()];
    int i = 0;
    for (var e : m.entrySet()) {
      f[i] = e.getKey();
      a[i++] = e.getValue();
    }
    return new FrAmounts(f, a);
  }

  static FrAmounts single(int fr, long amount) {
    return new FrAmounts(new int[] {fr}, new long[] {amount});
  }

  int size() {
    return frs.length;
  }

  long get(int fr) {
    int i = Arrays.binarySearch(frs, fr);
    return i >= 0 ? amounts[i] : 0;
  }

  boolean uses(int fr) {
    int i = Arrays.binarySearch(frs, fr);
    return i >= 0 && amounts[i] > 0;
  }

  TreeMap<Integer, Long> toMap() {
    TreeMap<Integer, Long> m = new TreeMap<>();
    for (int i = 0; i < frs.length; i++) {
      m.put(frs[i], amounts[i]);
    }
    return m;
  }

  @Override
  public String toString() {
    return toMap().toString();
  }
}
