package batchsim.reports;

import batchsim.core.metrics.RunResult;

/**
 * The engine's words for what the report shows. Under Volcano the queue rows are Volcano leaf Queues,
 * a workload is a PodGroup admitted when its last pod is bound (the gang's allocation after Inqueue), and
 * the quota charts compare usage with the Queue's {@code deserved} (README, "Kueue vs Volcano").
 *
 * @param queue the queue kind as a table header ("ClusterQueue", "Queue")
 * @param reserved what the first wait ends with ("quota reserved", ...)
 * @param started what the second wait ends with
 * @param nominal the share a queue owns (Kueue's nominal quota, Volcano's deserved)
 * @param workloads the admitted objects, plural
 */
record Words(String queue, String reserved, String started, String nominal, String workloads,
    boolean volcano) {
  static final Words KUEUE = new Words("ClusterQueue", "quota reserved", "all pods running",
      "nominal quota", "workloads", false);
  static final Words VOLCANO = new Words("Queue", "gang bound (Inqueue, then allocated)", "all pods running",
      "deserved", "PodGroups", true);

  static Words of(RunResult r) {
    return RunResult.VOLCANO.equals(r.engine()) ? VOLCANO : KUEUE;
  }

  /** A short "reserved" for table headers and leads. */
  String reservedShort() {
    return volcano ? "gang bound" : "quota reserved";
  }

  /** The title of the first wait's charts. */
  String waitTitle() {
    return volcano ? "Time to gang bound" : "Time to reservation";
  }

  /** What a queue borrows from: Kueue's cohort, Volcano's parent queue or cluster. */
  String lender() {
    return volcano ? "the rest of the cluster (reclaimable)" : "the cohort";
  }
}
