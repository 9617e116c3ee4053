package batchsim.workloads;

import java.util.List;
import java.util.SplittableRandom;

/** When the workloads of a class arrive, as a sequence of virtual times. */
public sealed interface ArrivalProcess {
  /**
   * The arrival after {@code index} earlier ones, the last of which came at {@code previousMs} (or the
   * class start time for the first). Returns -1 when the process has no more arrivals.
   */
  long next(long index, long previousMs, SplittableRandom random);

  /** Poisson process: exponential gaps with mean {@code meanGapMs} (rate = 1 / mean). */
  record Poisson(double meanGapMs) implements ArrivalProcess {
    public Poisson {
      if (!(meanGapMs > 0)) {
        throw new IllegalArgumentException("Poisson mean gap must be > 0");
      }
    }

    @Override
    public long next(long index, long previousMs, SplittableRandom random) {
      return previousMs + new Distribution.Exponential(meanGapMs).sample(random);
    }
  }

  /**
   * One arrival every {@code intervalMs}; the first comes one interval after the start (Kueue's
   * performance-test generator sleeps before each creation).
   */
  record FixedInterval(long intervalMs) implements ArrivalProcess {
    public FixedInterval {
      if (intervalMs < 0) {
        throw new IllegalArgumentException("interval must be >= 0");
      }
    }

    @Override
    public long next(long index, long previousMs, SplittableRandom random) {
      return previousMs + intervalMs;
    }
  }

  /** Arrivals at the listed offsets from the class start (sorted ascending). */
  record ExplicitTimes(List<Long> offsetsMs) implements ArrivalProcess {
    public ExplicitTimes {
      offsetsMs = List.copyOf(offsetsMs);
      for (int i = 1; i < offsetsMs.size(); i++) {
        if (offsetsMs.get(i) < offsetsMs.get(i - 1)) {
          throw new IllegalArgumentException("arrival times must be in ascending order");
        }
      }
    }

    @Override
    public long next(long index, long previousMs, SplittableRandom random) {
      return index < offsetsMs.size() ? offsetsMs.get((int) index) : -1;
    }
  }
}
