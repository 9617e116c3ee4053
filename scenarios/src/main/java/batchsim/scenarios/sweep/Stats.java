package batchsim.scenarios.sweep;

/**
 * Mean and 95% confidence interval of a small sample of replicas: the half-width is
 * {@code t(0.975, n-1) · s / √n} with Student's t, since replicas are few (typically 3 to 10).
 *
 * @param n the number of finite values (NaNs, "no value", are left out)
 * @param ci95 the half-width; NaN when n < 2
 */
record Stats(int n, double mean, double ci95) {
  /** Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom. */
  private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
      2.056, 2.052, 2.048, 2.045, 2.042};
  private static final double Z975 = 1.959964;

  static Stats of(double[] values) {
    int n = 0;
    double sum = 0;
    for (double v : values) {
      if (Double.isFinite(v)) {
        n++;
        sum += v;
      }
    }
    if (n == 0) {
      return new Stats(0, Double.NaN, Double.NaN);
    }
    double mean = sum / n;
    if (n == 1) {
      return new Stats(1, mean, Double.NaN);
    }
    double ss = 0;
    for (double v : values) {
      if (Double.isFinite(v)) {
        ss += (v - mean) * (v - mean);
      }
    }
    double sd = Math.sqrt(ss / (n - 1));
    return new Stats(n, mean, t975(n - 1) * sd / Math.sqrt(n));
  }

  /** The 0.975 quantile of Student's t; a Cornish-Fisher expansion beyond the table. */
  static double t975(int df) {
    if (df <= T975.length) {
      return T975[df - 1];
    }
    double z = Z975;
    double z3 = z * z * z;
    return z + (z3 + z) / (4.0 * df) + (5 * z3 * z * z + 16 * z3 + 3 * z) / (96.0 * df * df);
  }
}
