package batchsim.workloads;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A family of identical workloads arriving by an {@link ArrivalProcess}. Workload ids are
 * {@code <name>-<n>} with n from 1. Generation stops after {@code count} workloads (-1 = no limit) or
 * at {@code untilMs} (exclusive; {@link Long#MAX_VALUE} = no limit), whichever comes first.
 *
 * <p>ExplicitTimes offsets are relative to {@code startMs}; for Poisson and FixedInterval the process
 * starts at {@code startMs}.
 */
public record WorkloadClass(
    String name,
    String localQueue,
    int priority,
    String priorityClass,
    List<PodSetSpec> podSets,
    Distribution runtime,
    ArrivalProcess arrivals,
    long startMs,
    long count,
    long untilMs,
    long terminationGraceMs) implements WorkloadSourceSpec {

  public static final long UNLIMITED = -1;

  /** A class whose workloads take the scenario's termination grace period. */
  public WorkloadClass(String name, String localQueue, int priority, String priorityClass, List<PodSetSpec> podSets,
      Distribution runtime, ArrivalProcess arrivals, long startMs, long count, long untilMs) {
    this(name, localQueue, priority, priorityClass, podSets, runtime, arrivals, startMs, count, untilMs,
        WorkloadSpec.SCENARIO_GRACE);
  }

  @Override
  public WorkloadSource open(SplittableRandom random) {
    // Separate streams for arrival gaps and runtimes, so changing one distribution does not shift the other.
    SplittableRandom arrivalRandom = random.split();
    SplittableRandom runtimeRandom = random.split();
    return new WorkloadSource() {
      private long index;
      private long previous = startMs;
      private double rateFactor = 1.0;

      @Override
      public boolean scaleRate(double factor) {
        if (arrivals instanceof ArrivalProcess.ExplicitTimes) {
          return false;
        }
        rateFactor *= factor;
        return true;
      }

      @Override
      public WorkloadSpec next() {
        if (count != UNLIMITED && index >= count) {
          return null;
        }
        long t;
        if (arrivals instanceof ArrivalProcess.ExplicitTimes) {
          t = offset(arrivals.next(index, previous, arrivalRandom));
        } else {
          long gap = arrivals.next(index, previous, arrivalRandom) - previous;
          // A rate change (ScaleArrivals) divides the gaps drawn from then on.
          t = previous + (rateFactor == 1.0 ? gap : Math.round(gap / rateFactor));
        }
        if (t < 0 || t >= untilMs) {
          return null;
        }
        previous = t;
        index++;
        return new WorkloadSpec(name + "-" + index, name, localQueue, t, priority, priorityClass, podSets,
            runtime.sample(runtimeRandom), terminationGraceMs);
      }
    };
  }

  private long offset(long t) {
    return t < 0 ? -1 : startMs + t;
  }
}
