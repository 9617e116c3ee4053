package batchsim.core.metrics;

/** Histogram upper bounds as Kueue's pkg/metrics/metrics.go @ ff69552e defines them. */
public final class Buckets {
  /** client_golang prometheus.DefBuckets: histograms declared without Buckets (admission_attempt_duration_seconds). */
  public static final double[] PROMETHEUS_DEFAULT = {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10};

  private Buckets() {}

  /** Kueue generateExponentialBuckets(count): 1, then prometheus.ExponentialBuckets(2.5, 2, count-1). */
  public static double[] kueueExponential(int count) {
    double[] b = new double[count];
    b[0] = 1;
    double v = 2.5;
    for (int i = 1; i < count; i++) {
      b[i] = v;
      v *= 2;
    }
    return b;
  }
}
