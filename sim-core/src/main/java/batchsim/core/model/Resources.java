package batchsim.core.model;

import java.util.Arrays;

/**
 * An immutable vector of resource amounts indexed by a {@link ResourceSpace}. Hot paths read the backing
 * array through {@link #get}; nothing outside this class may mutate it.
 */
public final class Resources {
  private final long[] v;

  private Resources(long[] v) {
    this.v = v;
  }

  /** Takes ownership of {@code v}; the caller must not modify it afterwards. */
  public static Resources wrap(long[] v) {
    return new Resources(v);
  }

  public static Resources zero(int size) {
    return new Resources(new long[size]);
  }

  public int size() {
    return v.length;
  }

  public long get(int i) {
    return i < v.length ? v[i] : 0;
  }

  public long[] toArray() {
    return v.clone();
  }

  public Resources times(long n) {
    long[] r = new long[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = Math.multiplyExact(v[i], n);
    }
    return new Resources(r);
  }

  public boolean isZero() {
    for (long x : v) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  public String format(ResourceSpace space) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < v.length; i++) {
      if (v[i] != 0) {
        if (sb.length() > 1) {
          sb.append(", ");
        }
        sb.append(space.name(i)).append(": ").append(space.format(i, v[i]));
      }
    }
    return sb.append('}').toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Resources r && Arrays.equals(v, r.v);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(v);
  }

  @Override
  public String toString() {
    return Arrays.toString(v);
  }
}
