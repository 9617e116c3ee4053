package batchsim.core.model;

import java.util.SplittableRandom;

/** A distribution of non-negative longs (virtual ms), sampled from a run's seeded random stream. */
public interface LongDistribution {
  long sample(SplittableRandom random);

  /** Always {@code value}. */
  static LongDistribution constant(long value) {
    return r -> value;
  }
}
