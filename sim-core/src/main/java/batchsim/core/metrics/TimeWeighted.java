package batchsim.core.metrics;

/**
 * Exact time-weighted integrals of a set of piecewise-constant levels (e.g. GPUs allocated per flavor).
 * Each change first accrues level × elapsed, so the integral is exact, not sampled.
 */
final class TimeWeighted {
  private final long[] level;
  private final long[] peak;
  private final double[] integral;
  private final long[] since;

  TimeWeighted(int size) {
    level = new long[size];
    peak = new long[size];
    integral = new double[size];
    since = new long[size];
  }

  void add(int i, long delta, long now) {
    integral[i] += (double) level[i] * (now - since[i]);
    since[i] = now;
    level[i] += delta;
    if (level[i] > peak[i]) {
      peak[i] = level[i];
    }
  }

  /** Mean level over [0, end]. */
  double mean(int i, long end) {
    if (end <= 0) {
      return level[i];
    }
    return (integral[i] + (double) level[i] * (end - since[i])) / end;
  }

  /** The integral of level × time over [0, at] ({@code at} not before the last change). */
  double integral(int i, long at) {
    return integral[i] + (double) level[i] * (at - since[i]);
  }

  long peak(int i) {
    return peak[i];
  }

  long level(int i) {
    return level[i];
  }
}
