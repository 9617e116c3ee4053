package batchsim.core.kueue;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Elastic jobs via workload slices (Kueue feature gate ElasticJobsViaWorkloadSlices, pkg/workloadslicing): a
 * job's parallelism changes while Kueue manages it.
 *
 * <ul>
 *   <li>Its workload holds no quota, or the count shrinks: the workload's count changes in place
 *       (EnsureWorkloadSlices: ApplyPodSetCounts); an admitted workload's quota shrinks with it at once.
 *   <li>The count grows on an admitted workload: a new workload slice is made for the whole new count,
 *       annotated as the replacement for the admitted one, and queued as a new workload (its own creation time).
 *       The scheduler counts the old slice's quota as the new one's (ReplacedWorkloadSlice: only the difference
 *       must fit, in the old slice's flavors, and the old slice is never a preemption target of its
 *       replacement); once the new slice is admitted the old one is finished with reason
 *       WorkloadSliceReplaced (scheduler replaceWorkloadSlice).
 *   <li>An old slice evicted while its replacement waits is finished, not requeued, once its pods are gone
 *       (normalizeActiveSlices: evicted slices are finished; Kueue does so at the job's next reconcile, which
 *       frees the quota earlier); the replacement needs its whole count from the eviction on, and its admission
 *       meanwhile leaves the old slice to its eviction.
 * </ul>
 * Whether scaling is allowed at all (the gate, partial admission, TAS) is the caller's to decide.
 */
public final class WorkloadSlices {
  /** Kueue's Finished reason for a replaced slice. */
  public static final String REPLACED = "WorkloadSliceReplaced";

  /** What a scale request did. */
  public enum Change {
    /** The count is what it was. */
    UNCHANGED,
    /** The count changed in place (a pending workload, or a smaller one holding quota). */
    IN_PLACE,
    /** A larger count for a workload holding quota: a new slice must be made ({@link #newSlice}). */
    NEEDS_NEW_SLICE
  }

  private final KueueEngine engine;
  /** Old slices whose usage stays out of their ClusterQueue until the cycle's own usage is taken back. */
  private final List<Workload> outForCycle = new ArrayList<>();

  WorkloadSlices(KueueEngine engine) {
    this.engine = engine;
  }

  /** Kueue EnsureWorkloadSlices for the job's newest slice {@code w} and the job's new pod count. */
  public Change scale(Workload w, int pods) {
    int count = w.spec.podSets().get(0).count();
    if (pods == count) {
      return Change.UNCHANGED;
    }
    if (w.holdsQuota() && pods > count) {
      return Change.NEEDS_NEW_SLICE;
    }
    boolean queued = w.queued();
    if (queued) {
      w.cq.forget(w);
    }
    w.spec = withCount(w.spec, w.spec.id(), w.spec.createdMs(), pods);
    w.shape = new SchedulingShape(w.priority, w.spec.podSets());
    w.lastAssignment = null;
    if (queued) {
      engine.edits.requeueChanged(w, w.cq);
    }
    if (w.holdsQuota()) {
      // Kueue: the cache's usage follows the podSet counts (totalRequestsFromAdmission), so the quota shrinks now.
      w.cq.removeUsage(w.usage);
      w.counts = w.counts.clone();
      w.counts[0] = pods;
      w.usage = usage(w);
      w.cq.addUsage(w.usage);
      engine.requeues.notifyRequeue(w.cq);
    }
    engine.stateCheck.touch(w);
    return Change.IN_PLACE;
  }

  /** The spec of the slice that replaces {@code old} at {@code pods}: named after the job, numbered on. */
  public WorkloadSpec sliceSpec(Workload old, int pods) {
    return withCount(old.spec, old.jobName() + "-slice-" + (old.sliceIndex + 1), engine.now(), pods);
  }

  /** The new slice was created (from {@link #sliceSpec}): it is the replacement for {@code old}. */
  public void linked(Workload slice, Workload old) {
    slice.replacementFor = old;
    slice.sliceName = old.jobName();
    slice.sliceIndex = old.sliceIndex + 1;
    old.replacement = slice;
  }

  /**
   * The slice {@code w} replaces, while it holds quota in w's ClusterQueue and is not being evicted: the one
   * whose quota counts as w's and which w's admission finishes. An evicted slice keeps its quota until its pods
   * are gone and is then finished ({@link #finishEvictedReplaced}); w needs its whole count meanwhile.
   */
  public Workload held(Workload w) {
    Workload old = w.replacementFor;
    return old != null && old.cq == w.cq && old.holdsQuota() && old.state != WorkloadState.EVICTING ? old : null;
  }

  /** Nominates a replacement slice as if the old slice's quota were free, in the old slice's flavors. */
  void nominate(Workload w, Runnable nominate) {
    Workload old = held(w);
    if (old == null) {
      nominate.run();
      return;
    }
    engine.workloads.removeUsage(old);
    w.lastAssignment = null;
    engine.assigner.sticky = old.flavors; // Kueue: a new slice must reuse the flavors of the one it replaces
    try {
      nominate.run();
    } finally {
      engine.assigner.sticky = null;
      engine.workloads.addUsage(old);
    }
  }

  /** Before a replacement slice is processed: the old slice's usage is counted as the new one's. */
  Workload beforeProcess(Workload w) {
    Workload old = held(w);
    if (old != null) {
      engine.workloads.removeUsage(old);
    }
    return old;
  }

  /**
   * After it was processed: admitted, the old slice is finished (replaced); holding usage for the rest of
   * the cycle (waiting for preemptions), its whole usage stands for both until the cycle ends.
   */
  void afterProcess(Workload w, Workload old, boolean admitted, boolean holdsCycleUsage) {
    if (old == null) {
      return;
    }
    if (holdsCycleUsage && !admitted) {
      outForCycle.add(old);
      return;
    }
    engine.workloads.addUsage(old);
    if (admitted) {
      w.replacementFor = null;
      engine.workloads.finish(old, REPLACED, "Replaced to accommodate a workload (" + w.id()
          + ") due to workload slice aggregation");
      engine.recorder.event(old, REPLACED, "Normal");
    }
  }

  /** The cycle's own usage is gone: old slices count again. */
  void cycleEnded() {
    for (Workload old : outForCycle) {
      engine.workloads.addUsage(old);
    }
    outForCycle.clear();
  }

  /**
   * An evicted slice's pods are gone: when a newer slice of its job still waits, Kueue finishes it
   * (normalizeActiveSlices) instead of requeueing it. Returns whether it was finished.
   */
  public boolean finishEvictedReplaced(Workload w) {
    Workload r = w.replacement;
    if (r == null || r.state == WorkloadState.FINISHED || r.state == WorkloadState.DELETED) {
      return false;
    }
    r.replacementFor = null; // it no longer holds quota to count as the replacement's
    engine.workloads.finish(w, REPLACED, "Replaced to accommodate a new workload slice");
    return true;
  }

  private FrAmounts usage(Workload w) {
    TreeMap<Integer, Long> usage = new TreeMap<>();
    int nRes = engine.index.resources().size();
    for (int i = 0; i < w.counts.length; i++) {
      long[] req = FlavorAssigner.requests(w.spec.podSets().get(i), w.counts[i], w.cq, nRes);
      for (int r = 0; r < nRes; r++) {
        if (req[r] > 0 && w.flavors[i][r] >= 0) {
          usage.merge(engine.index.fr(w.flavors[i][r], r), req[r], Long::sum);
        }
      }
    }
    return FrAmounts.of(usage);
  }

  private static WorkloadSpec withCount(WorkloadSpec s, String id, long createdMs, int pods) {
    List<PodSetSpec> podSets = new ArrayList<>(s.podSets());
    PodSetSpec p = podSets.get(0);
    podSets.set(0, new PodSetSpec(p.name(), pods, p.minCount(), p.perPod(), p.nodeSelector(), p.tolerations(),
        p.topology()));
    return new WorkloadSpec(id, s.workloadClass(), s.localQueue(), createdMs, s.priority(), s.priorityClass(),
        List.copyOf(podSets), s.runtimeMs(), s.terminationGraceMs());
  }
}
