package batchsim.reports;

import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.RunResult;
import java.util.ArrayList;
import java.util.List;

/** The warning about workloads preempted over and over (summary table and report say the same). */
final class PreemptionWarnings {
  private PreemptionWarnings() {}

  /** One sentence per workload preempted more than the threshold within one simulated hour; none otherwise. */
  static List<String> of(RunResult r) {
    List<String> out = new ArrayList<>();
    if (r.preemptionOverall() == null) {
      return out;
    }
    r.preemptionOverall().frequentlyPreempted().forEach((w, n) -> out.add("workload " + w + " was preempted "
        + Formats.grouped(n) + " times within one simulated hour (more than "
        + PreemptionStats.FREQUENT_PREEMPTIONS_PER_HOUR + "): it churns instead of running"));
    return out;
  }
}
