package batchsim.core.world.volcano;

import batchsim.core.metrics.Decision;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.volcano.Pod;
import batchsim.core.volcano.PodGroup;
import batchsim.core.volcano.PodGroupPhase;
import java.util.List;

/**
 * A workload run as one Volcano PodGroup (a gang of all its pods): what the simulation tracks beside the
 * engine's own state. Admitted means every pod got a bind (the gang was allocated whole); it stays so when a
 * node failure takes pods (they come back to the same gang) and ends with an eviction.
 */
final class VolcanoWorkload {
  static final long NEVER = WorkloadRecord.NEVER;

  final WorkloadSpec spec;
  /** Index of its Volcano queue among the reported leaf queues. */
  final int queue;
  final String queueName;
  final PodGroup pg;
  final int pods;
  /** Its place in submission order. */
  long seq;
  /** Pods with a bind issued and not evicted, lost or finished since. */
  int bound;
  /** Bound pods whose bind completed (running). */
  int up;
  /** Evicted pods still on their node (termination grace period). */
  int releasing;
  /** A serving Deployment's PodGroup: runs until scaled down, kept out of the batch statistics. */
  boolean serving;
  /** Deleted: a serving Deployment scaled to zero, or the job deleted by the timeline. */
  boolean deleted;
  long deletedMs = NEVER;
  boolean admitted;
  /** The runtime is ticking: every pod runs. */
  boolean running;
  boolean finished;
  /** Bumped when a pending FINISH becomes stale (eviction, lost pod). */
  int generation;
  long firstAdmittedMs = NEVER;
  long admittedMs = NEVER;
  long startedMs = NEVER;
  long finishedMs = NEVER;
  /** The eviction whose readmission is still to be recorded, or NEVER. */
  long evictedAtMs = NEVER;
  /** The admission whose start was recorded (time-to-start counts once per admission). */
  long startRecordedFor = NEVER;
  int evictions;
  /** With a decision log: the PodGroup's story so far, and the last gang condition logged. */
  List<Decision> history;
  String loggedCondition = "";
  /** The engine session whose evictions of this workload were counted (one eviction per session). */
  long evictionSession = -1;

  VolcanoWorkload(WorkloadSpec spec, int queue, String queueName, PodGroup pg) {
    this.spec = spec;
    this.queue = queue;
    this.queueName = queueName;
    this.pg = pg;
    this.pods = pg.pods().size();
  }

  /**
   * The state reported in workloads.csv: FINISHED, DELETED (serving, scaled down), RUNNING, BOUND (admitted, not
   * all pods running), INQUEUE, PENDING.
   */
  String state() {
    if (deleted) {
      return "DELETED";
    }
    if (finished) {
      return "FINISHED";
    }
    if (running) {
      return "RUNNING";
    }
    if (admitted) {
      return "BOUND";
    }
    return pg.phase() == PodGroupPhase.INQUEUE ? "INQUEUE" : "PENDING";
  }

  @Override
  public String toString() {
    return spec.id();
  }

  WorkloadRecord record() {
    String msg = running || finished ? "" : pg.lastCondition();
    return new WorkloadRecord(spec.id(), spec.workloadClass(), spec.localQueue(), queueName, spec.priority(),
        spec.createdMs(), firstAdmittedMs, admittedMs, admittedMs, startedMs, finishedMs, evictions, evictions,
        state(), "", msg);
  }

  /** Per pod: its workload, its request (with one "pods") and the node pool it is bound in. */
  static final class PodRun {
    final VolcanoWorkload workload;
    final long[] request;
    int pool = -1;
    /** The bind completed and the pod runs. */
    boolean up;

    PodRun(VolcanoWorkload workload, Pod pod, ResourceSpace resources) {
      this.workload = workload;
      this.request = pod.spec().request().toArray();
      int pods = resources.indexOf(ResourceSpace.PODS);
      if (pods >= 0 && request[pods] == 0) {
        request[pods] = 1;
      }
    }
  }
}
