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

  /** Always {@code value}. */
  record Constant(long value) implements Distribution {
    @Override
    public long sample(SplittableRandom random) {
      return value;
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
