package batchsim.workloads;

/**
 * The standard normal distribution's CDF and quantile, for conditioning a log-normal runtime on the time a
 * job has already run. Both are classic rational approximations: erfc after Numerical Recipes (fractional
 * error below 1.2e-7) and Acklam's quantile (relative error below 1.2e-9), accurate far beyond what a
 * runtime estimate is.
 */
final class Normal {
  /** The largest probability whose quantile is still finite and meaningful in doubles. */
  static final double MAX_P = 1 - 1e-15;

  private static final double[] A = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
      1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
  private static final double[] B = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
      6.680131188771972e+01, -1.328068155288572e+01};
  private static final double[] C = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
      -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
  private static final double[] D = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
      3.754408661907416e+00};
  private static final double P_LOW = 0.02425;

  private Normal() {}

  static double cdf(double z) {
    return 0.5 * erfc(-z / Math.sqrt(2));
  }

  private static double erfc(double x) {
    double z = Math.abs(x);
    double t = 1 / (1 + 0.5 * z);
    double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
        + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223
        + t * 0.17087277)))))))));
    return x >= 0 ? r : 2 - r;
  }

  /** The z with cdf(z) = p, for 0 < p < 1. */
  static double quantile(double p) {
    if (p < P_LOW) {
      return tail(Math.sqrt(-2 * Math.log(p)));
    }
    if (p > 1 - P_LOW) {
      return -tail(Math.sqrt(-2 * Math.log(1 - p)));
    }
    double q = p - 0.5;
    double r = q * q;
    return (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
        / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
  }

  private static double tail(double q) {
    return (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
        / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
  }
}
