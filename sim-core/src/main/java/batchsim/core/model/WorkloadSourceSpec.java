package batchsim.core.model;

import java.util.SplittableRandom;

/** A recipe for a {@link WorkloadSource}; each run opens a fresh source with its own random stream. */
public interface WorkloadSourceSpec {
  /** A short name for errors and reports (the class or file name). */
  String name();

  WorkloadSource open(SplittableRandom random);
}
