package batchsim.workloads;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A distribution of non-negative longs (durations in virtual ms, or counts). Samples are rounded to the
 * nearest whole value and clamped at 0.
 */
public sealed interface Distribution extends batchsim.core.model.LongDistribution {
  @Override
  long sample(SplittableRandom random);

  /** Mean of the distribution, for reports and sanity checks. */
  double mean();

  /**
   * What is left of a sample known to exceed {@code elapsed}: a job that has run {@code elapsed} so far (an
   * imported running workload) runs this much longer, drawn from the distribution conditioned on having
   * lasted that long. A fixed value already passed leaves nothing.
   */
  long remainingAfter(SplittableRandom random, long elapsed);

  /** Always {@code value}. */
  record Constant(long value) implements Distribution {
    @Override
    public long sample(SplittableRandom random) {
      return value;
    }

    @Override
    public long remainingAfter(SplittableRandom random, long elapsed) {
      return Math.max(0, value - elapsed);
    }

    @Override
    public double mean() {
      return value;
    }
  }

  /** Exponential with the given mean (memoryless; Poisson inter-arrival times). */
  record Exponential(double mean) implements Distribution {
    public Exponential {
      if (!(mean > 0)) {
        throw new IllegalArgumentException("exponential mean must be > 0");
      }
    }

    @Override
    public long sample(SplittableRandom random) {
      // 1 - nextDouble() is in (0, 1], so the log is finite.
      return Math.round(-mean * Math.log(1.0 - random.nextDouble()));
    }

    /** Memoryless: what is left does not depend on how long it ran. */
    @Override
    public long remainingAfter(SplittableRandom random, long elapsed) {
      return sample(random);
    }
  }

  /** Uniform on [min, max]. */
  record Uniform(long min, long max) implements Distribution {
    public Uniform {
      if (min < 0 || max < min) {
        throw new IllegalArgumentException("uniform needs 0 <= min <= max");
      }
    }

    @Override
    public long sample(SplittableRandom random) {
      return min == max ? min : random.nextLong(min, max + 1);
    }

    @Override
    public long remainingAfter(SplittableRandom random, long elapsed) {
      long from = Math.max(min, elapsed);
      return from >= max ? Math.max(0, max - elapsed) : random.nextLong(from, max + 1) - elapsed;
    }

    @Override
    public double mean() {
      return (min + max) / 2.0;
    }
  }

  /**
   * Log-normal given by its median and 99th percentile, which is how people describe job runtimes:
   * mu = ln(median), sigma = (ln(p99) - mu) / z(0.99).
   */
  record LogNormal(double median, double p99) implements Distribution {
    static final double Z99 = 2.3263478740408408;

    public LogNormal {
      if (!(median > 0) || !(p99 >= median)) {
        throw new IllegalArgumentException("lognormal needs 0 < median <= p99");
      }
    }

    double sigma() {
      return (Math.log(p99) - Math.log(median)) / Z99;
    }

    @Override
    public long sample(SplittableRandom random) {
      return Math.round(median * Math.exp(sigma() * gaussian(random)));
    }

    /** Inverse transform from the conditional distribution: u uniform on [F(elapsed), 1). */
    @Override
    public long remainingAfter(SplittableRandom random, long elapsed) {
      double s = sigma();
      if (elapsed <= 0 || s == 0) {
        return s == 0 ? Math.max(0, Math.round(median) - elapsed) : sample(random);
      }
      double from = Normal.cdf((Math.log(elapsed) - Math.log(median)) / s);
      double u = from + (1 - from) * random.nextDouble();
      if (u >= Normal.MAX_P) {
        return 0; // beyond any quantile a double can tell apart: it is as good as over
      }
      return Math.max(0, Math.round(median * Math.exp(s * Normal.quantile(u))) - elapsed);
    }

    @Override
    public double mean() {
      double s = sigma();
      return median * Math.exp(s * s / 2);
    }
  }

  /** Standard normal by Box-Muller, from one random stream (deterministic, no cached spare). */
  static double gaussian(SplittableRandom random) {
    double u1 = 1.0 - random.nextDouble();
    double u2 = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  static String describe(Distribution d) {
    return String.format(Locale.ROOT, "%s(mean=%.1f)", d.getClass().getSimpleName(), d.mean());
  }
}
