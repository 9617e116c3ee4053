package batchsim.core.world.kueue;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventTarget;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadSlices;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.model.ActionRefused;
import batchsim.core.model.ElasticAction;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * [elastic] Elastic jobs in the world: the timeline's {@code scaleWorkload} and the workload classes' scaling
 * patterns change a job's pod count; the engine's {@link WorkloadSlices} decides what Kueue does (in place, or
 * a new slice), and this keeps the world's books: the new slice is created as a workload of the same job (no
 * arrival), a shrunk workload's pods and quota books follow at once.
 */
final class ElasticSlices implements EventTarget {
  private final KueueAdmission admission;
  private final WorkloadRuns runs;
  /** Scaling patterns by workload class (looked up, never iterated). */
  private final Map<String, List<ElasticAction.Step>> patterns = new HashMap<>();

  /** A class pattern's step for one job, due now. */
  private record Due(Workload first, int pods) {
    @Override
    public String toString() {
      return first.jobName() + " to " + pods + " pods";
    }
  }

  ElasticSlices(KueueAdmission admission, WorkloadRuns runs) {
    this.admission = admission;
    this.runs = runs;
  }

  void pattern(ElasticAction.ClassPattern p) {
    patterns.put(p.workloadClass(), p.steps());
  }

  /** The job started running for the first time: its class's steps are due from now. */
  void firstStart(Workload w) {
    List<ElasticAction.Step> steps = patterns.get(w.spec().workloadClass());
    if (steps == null) {
      return;
    }
    for (ElasticAction.Step s : steps) {
      admission.loop.schedule(admission.loop.now() + s.afterMs(), EventKind.TIMELINE, this, new Due(w, s.pods()));
    }
  }

  /** A pattern step: the job scales unless it ended or is being evicted (Kueue: the job is not active). */
  @Override
  public void handle(Event e) {
    if (admission.downtime.deferred(e)) {
      return; // Kueue's job reconciler sees the new parallelism when it is up again
    }
    Due d = (Due) e.payload();
    Workload job = d.first().latestSlice();
    if (admission.live.contains(job) && job.state() != WorkloadState.EVICTING) {
      apply(job, d.pods());
    }
  }

  /**
   * The job's run ended with slice {@code w}: a newer slice still waiting ends with it (Kueue's job reconciler
   * finishes the workloads of a finished job).
   */
  void jobFinished(Workload w) {
    Workload newest = w.latestSlice();
    if (newest != w && admission.live.contains(newest) && !newest.holdingQuota()) {
      admission.kueue.edits().finish(newest, true, WorkloadActionsApplier.SUCCEEDED_MESSAGE);
      admission.metrics.finished(newest);
    }
  }

  /** The timeline's {@code scaleWorkload} on the job's newest slice; refused where Kueue would not scale. */
  void scale(Workload w, int pods) {
    String why = w.spec().podSets().size() != 1 ? "it has " + w.spec().podSets().size()
        + " pod sets (scaling changes a Job's parallelism, its one pod set)"
        : w.spec().podSets().get(0).hasMinCount() ? "it allows partial admission (minCount); Kueue's webhook "
            + "refuses a parallelism change of such a job unless it is suspended"
        : w.spec().podSets().get(0).topology() != null ? "it requests a topology (TAS); elastic jobs with TAS "
            + "need feature gate ElasticJobsViaWorkloadSlicesWithTAS, which batchsim does not model"
        : w.state() == WorkloadState.EVICTING ? "it is being evicted" : null;
    if (why != null) {
      throw new ActionRefused("workload " + w.jobName() + " cannot scale: " + why);
    }
    apply(w, pods);
  }

  private void apply(Workload w, int pods) {
    WorkloadSlices slices = admission.kueue.edits().slices();
    boolean shrinksHeld = w.holdingQuota() && pods < w.spec().podSets().get(0).count();
    WorkloadSlices.Change c;
    if (shrinksHeld) {
      WorkloadSlices.Change[] out = new WorkloadSlices.Change[1];
      runs.resized(w, () -> out[0] = slices.scale(w, pods));
      c = out[0];
    } else {
      c = slices.scale(w, pods);
    }
    if (c == WorkloadSlices.Change.NEEDS_NEW_SLICE) {
      Workload slice = admission.submit(slices.sliceSpec(w, pods), false); // Kueue's job reconciler makes it
      slices.linked(slice, w);
      WorkloadRun rt = WorkloadRuns.run(slice);
      rt.slice = true;
      rt.jobCreatedMs = WorkloadRuns.jobCreatedMs(w);
    }
    admission.onWorkloadChanged(w);
    admission.requestCycle();
    admission.requestBind();
  }
}
