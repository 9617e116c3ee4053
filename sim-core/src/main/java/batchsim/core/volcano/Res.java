package batchsim.core.volcano;

import java.util.Arrays;

/**
 * Volcano's {@code api.Resource} (pkg/scheduler/api/resource_info.go), operation for operation: cpu and memory
 * are always present; other dimensions ("scalars") are present or absent, and absent differs from 0 in the
 * helpers that take a default (Zero or Infinity). Amounts are doubles in Volcano's units, so infinite
 * capabilities ({@code math.MaxFloat64}, {@code math.MaxInt64}) and proportion's fractional shares behave as
 * in Go. Comparisons use Volcano's epsilon {@link #MIN_RESOURCE} where Volcano does.
 *
 * <p>Mutable: the arithmetic methods change {@code this} and return it, as Volcano's do.
 */
final class Res {
  /** Volcano's minResource: the epsilon of the LessEqual family and the "nonzero" threshold. */
  static final double MIN_RESOURCE = 0.1;
  /** Go's math.MaxFloat64, used for unlimited cpu/memory. */
  static final double INF = Double.MAX_VALUE;
  /** math.MaxInt64 as a float64, used for unlimited scalars of the hierarchical root. */
  static final double INFINITE_SCALAR = 9.223372036854775807E18;
  /** The value {@code Infinity} (-1) that Diff treats as infinite (DimensionDefaultValue quirk). */
  private static final double INFINITY_MARK = -1;

  final double[] v;
  /** Presence of each scalar; indices 0 and 1 (cpu, memory) are always present. */
  private final boolean[] has;
  /** Whether the ScalarResources map exists (nil vs allocated matters only to {@link #sub}). */
  private boolean scalarMap;

  Res(int n) {
    v = new double[n];
    has = new boolean[n];
  }

  private Res(Res o) {
    v = o.v.clone();
    has = o.has.clone();
    scalarMap = o.scalarMap;
  }

  Res copy() {
    return new Res(this);
  }

  int size() {
    return v.length;
  }

  boolean has(int i) {
    return i <= Dims.MEMORY || has[i];
  }

  /** Resource.Get: 0 when absent. */
  double get(int i) {
    return v[i];
  }

  void setScalar(int i, double amount) {
    scalarMap = true;
    has[i] = true;
    v[i] = amount;
  }

  /** An InfiniteResource(): cpu and memory MaxFloat64, no scalars. */
  static Res infinite(int n) {
    Res r = new Res(n);
    r.v[Dims.CPU] = INF;
    r.v[Dims.MEMORY] = INF;
    return r;
  }

  Res add(Res o) {
    v[0] += o.v[0];
    v[1] += o.v[1];
    for (int i = 2; i < v.length; i++) {
      if (o.has[i]) {
        scalarMap = true;
        has[i] = true;
        v[i] += o.v[i];
      }
    }
    return this;
  }

  /** Resource.sub / SubWithoutAssert: scalars are untouched when this has no scalar map at all. */
  Res sub(Res o) {
    v[0] -= o.v[0];
    v[1] -= o.v[1];
    if (!scalarMap) {
      return this;
    }
    for (int i = 2; i < v.length; i++) {
      if (o.has[i]) {
        has[i] = true;
        v[i] -= o.v[i];
      }
    }
    return this;
  }

  Res multi(double ratio) {
    v[0] *= ratio;
    v[1] *= ratio;
    for (int i = 2; i < v.length; i++) {
      if (has[i]) {
        v[i] *= ratio;
      }
    }
    return this;
  }

  private static boolean leq(double l, double r) {
    return l < r || Math.abs(l - r) < MIN_RESOURCE;
  }

  /** Resource.LessEqual(rr, Zero or Infinity): every dimension of this within rr. */
  boolean lessEqual(Res rr, boolean infinityDefault) {
    if (!leq(v[0], rr.v[0]) || !leq(v[1], rr.v[1])) {
      return false;
    }
    if (infinityDefault) {
      for (int i = 2; i < v.length; i++) {
        if (rr.has[i] && !has[i]) {
          return false;
        }
      }
    }
    for (int i = 2; i < v.length; i++) {
      if (!has[i]) {
        continue;
      }
      if (!rr.has[i] && infinityDefault) {
        continue;
      }
      if (!leq(v[i], rr.has[i] ? rr.v[i] : 0)) {
        return false;
      }
    }
    return true;
  }

  /** Resource.LessEqualWithResourcesName(rr, Zero): like lessEqual(Zero) without the key check. */
  boolean lessEqualAll(Res rr) {
    return lessEqual(rr, false);
  }

  /**
   * Resource.LessEqualWithDimensionAndResourcesName: only the dimensions {@code req} asks for (> 0), strict
   * comparison, the pods dimension skipped; a scalar missing on either side counts as 0.
   */
  boolean lessEqualWithDimension(Res rr, Res req, int podsDim) {
    if (req.v[0] > 0 && v[0] > rr.v[0]) {
      return false;
    }
    if (req.v[1] > 0 && v[1] > rr.v[1]) {
      return false;
    }
    if (!scalarMap) {
      return true;
    }
    for (int i = 2; i < v.length; i++) {
      if (!req.has[i] || i == podsDim) {
        continue;
      }
      if (req.v[i] > 0 && v[i] > rr.v[i]) {
        return false;
      }
    }
    return true;
  }

  /** Names of the dimensions where this fails lessEqualWithDimension, for messages. */
  String exceededDimensions(Res rr, Res req, Dims dims) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < v.length; i++) {
      if (i == dims.pods || !req.has(i) || req.v[i] <= 0 || v[i] <= rr.v[i]) {
        continue;
      }
      sb.append(sb.length() == 0 ? "" : ", ").append(dims.name(i));
    }
    return sb.toString();
  }

  /** Resource.LessEqualPartlyWithDimension: some requested dimension (pods skipped) of this within rr. */
  boolean lessEqualPartlyWithDimension(Res rr, Res req, int podsDim) {
    if (req.v[0] > 0 && leq(v[0], rr.v[0])) {
      return true;
    }
    if (req.v[1] > 0 && leq(v[1], rr.v[1])) {
      return true;
    }
    for (int i = 2; i < v.length; i++) {
      if (req.has[i] && i != podsDim && req.v[i] > 0 && leq(v[i], rr.v[i])) {
        return true;
      }
    }
    return false;
  }

  /**
   * Resource.LessEqualPartlyWithDimensionZeroFiltered: as {@link #lessEqualPartlyWithDimension}, ignoring the
   * requested dimensions where both this and rr are ~0.
   */
  boolean lessEqualPartlyWithDimensionZeroFiltered(Res rr, Res req, int podsDim) {
    Res filtered = new Res(v.length);
    for (int i = 0; i < v.length; i++) {
      if (!req.has(i) || req.v[i] <= 0) {
        continue;
      }
      if (v[i] < MIN_RESOURCE && rr.v[i] < MIN_RESOURCE) {
        continue;
      }
      if (i <= Dims.MEMORY) {
        filtered.v[i] = req.v[i];
      } else {
        filtered.setScalar(i, req.v[i]);
      }
    }
    return lessEqualPartlyWithDimension(rr, filtered, podsDim);
  }

  /** Resource.GreaterPartlyWithDimension: some requested dimension (pods skipped) of this above rr. */
  boolean greaterPartlyWithDimension(Res rr, Res req, int podsDim) {
    if (req.v[0] > 0 && v[0] > rr.v[0]) {
      return true;
    }
    if (req.v[1] > 0 && v[1] > rr.v[1]) {
      return true;
    }
    for (int i = 2; i < v.length; i++) {
      if (req.has[i] && i != podsDim && req.v[i] > 0 && v[i] > rr.v[i]) {
        return true;
      }
    }
    return false;
  }

  /**
   * Resource.GreaterPartlyWithRelevantDimensions: as {@link #greaterPartlyWithDimension}, but only over cpu and
   * memory where rr is nonzero and scalars that rr has (even at 0).
   */
  boolean greaterPartlyWithRelevantDimensions(Res rr, Res req, int podsDim) {
    Res filtered = new Res(v.length);
    if (req.v[0] > 0 && !(rr.v[0] < MIN_RESOURCE)) {
      filtered.v[0] = req.v[0];
    }
    if (req.v[1] > 0 && !(rr.v[1] < MIN_RESOURCE)) {
      filtered.v[1] = req.v[1];
    }
    for (int i = 2; i < v.length; i++) {
      if (req.has[i] && req.v[i] > 0 && rr.has[i]) {
        filtered.setScalar(i, req.v[i]);
      }
    }
    return greaterPartlyWithDimension(rr, filtered, podsDim);
  }

  /** Resource.Diff(rr, default): {increased, decreased}, each only on the dimensions that moved that way. */
  Res[] diff(Res rr, boolean infinityDefault) {
    double dflt = infinityDefault ? INFINITY_MARK : 0;
    Res inc = new Res(v.length);
    Res dec = new Res(v.length);
    inc.scalarMap = true;
    dec.scalarMap = true;
    if (v[0] > rr.v[0]) {
      inc.v[0] = v[0] - rr.v[0];
    } else {
      dec.v[0] = rr.v[0] - v[0];
    }
    if (v[1] > rr.v[1]) {
      inc.v[1] = v[1] - rr.v[1];
    } else {
      dec.v[1] = rr.v[1] - v[1];
    }
    for (int i = 2; i < v.length; i++) {
      if (!has[i] && !rr.has[i]) {
        continue;
      }
      double l = has[i] ? v[i] : dflt;
      double r = rr.has[i] ? rr.v[i] : dflt;
      if (l == INFINITY_MARK) {
        inc.setScalar(i, l);
      } else if (r == INFINITY_MARK) {
        dec.setScalar(i, r);
      } else if (l > r) {
        inc.setScalar(i, l - r);
      } else {
        dec.setScalar(i, r - l);
      }
    }
    return new Res[] {inc, dec};
  }

  /** api.ExceededPart(left, right): the part of left above right (Diff with Zero, increased side). */
  static Res exceededPart(Res left, Res right) {
    if (right == null) {
      return left;
    }
    if (left == null) {
      return new Res(right.size());
    }
    return left.diff(right, false)[0];
  }

  /** Resource.MinDimensionResource(rr, default), in place. */
  Res minDimension(Res rr, boolean infinityDefault) {
    if (rr.v[0] < v[0]) {
      v[0] = rr.v[0];
    }
    if (rr.v[1] < v[1]) {
      v[1] = rr.v[1];
    }
    for (int i = 2; i < v.length; i++) {
      if (!has[i]) {
        continue;
      }
      if (rr.has[i]) {
        v[i] = Math.min(v[i], rr.v[i]);
      } else if (!infinityDefault) {
        v[i] = 0;
      }
    }
    return this;
  }

  /** helpers.Max(l, r): per dimension maximum over the non-negative values either side has. */
  static Res max(Res l, Res r) {
    Res res = new Res(l.size());
    res.v[0] = Math.max(l.v[0], r.v[0]);
    res.v[1] = Math.max(l.v[1], r.v[1]);
    if (!l.scalarMap && !r.scalarMap) {
      return res;
    }
    res.scalarMap = true;
    for (int i = 2; i < l.v.length; i++) {
      if (l.has[i] && l.v[i] >= 0) {
        res.setScalar(i, l.v[i]);
      }
    }
    for (int i = 2; i < r.v.length; i++) {
      if (r.has[i] && r.v[i] >= 0) {
        res.setScalar(i, Math.max(r.v[i], res.has[i] ? res.v[i] : 0));
      }
    }
    return res;
  }

  /** Resource.IsEmpty: nothing at or above the epsilon, pods ignored. */
  boolean isEmpty(int podsDim) {
    if (!(v[0] < MIN_RESOURCE && v[1] < MIN_RESOURCE)) {
      return false;
    }
    for (int i = 2; i < v.length; i++) {
      if (has[i] && i != podsDim && v[i] >= MIN_RESOURCE) {
        return false;
      }
    }
    return true;
  }

  /** Whether dimension i is among ResourceNames() (present and at least the epsilon; pods included). */
  boolean named(int i) {
    return has(i) && v[i] >= MIN_RESOURCE;
  }

  /** api.Intersection(r1, r2) is non-empty; {@code ignorePods} gives IntersectionWithIgnoredScalarResources. */
  static boolean intersects(Res a, Res b, int podsDim, boolean ignorePods) {
    for (int i = 0; i < a.v.length; i++) {
      if (ignorePods && i == podsDim) {
        continue;
      }
      if (a.named(i) && b.named(i)) {
        return true;
      }
    }
    return false;
  }

  /** helpers.Share(l, r). */
  static double share(double l, double r) {
    if (r == 0) {
      return l == 0 ? 0 : 1;
    }
    return l / r;
  }

  /** equality.Semantic.DeepEqual on two resources (a nil and an empty scalar map are equal). */
  boolean sameAs(Res o) {
    if (v[0] != o.v[0] || v[1] != o.v[1]) {
      return false;
    }
    for (int i = 2; i < v.length; i++) {
      if (has[i] != o.has[i] || (has[i] && v[i] != o.v[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < v.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(has(i) ? Double.toString(v[i]) : "-");
    }
    return sb.append(']').toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Res r && sameAs(r);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(v);
  }
}
