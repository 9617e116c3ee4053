package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.List;

/**
 * Checked mode: every workload whose state changed is in exactly the queue structures its lifecycle state
 * implies (heap, inadmissible set, held, admitted set, second-pass queue).
 */
final class WorkloadStateCheck {
  private final KueueEngine engine;
  /** Workloads whose state changed since the last check; kept only while checking is on. */
  private final List<Workload> touched = new ArrayList<>();
  private boolean trackTouched;

  WorkloadStateCheck(KueueEngine engine) {
    this.engine = engine;
  }

  /** What hears each workload a whole-shape move changes, or null when nobody listens (the usual case). */
  java.util.function.Consumer<Workload> listener() {
    return trackTouched || engine.host.watchesWorkloads() ? this::touch : null;
  }

  void touch(Workload w) {
    engine.host.onWorkloadChanged(w);
    if (trackTouched) {
      touched.add(w);
    }
  }

  /** Turns on tracking of changed workloads for {@link #checkTouchedWorkloads()}. */
  void trackChanges(boolean on) {
    trackTouched = on;
    touched.clear();
  }

  /**
   * Checks that every workload changed since the last call is in exactly one lifecycle state and in the
   * structures that state implies: a pending workload in exactly one of its queue's active heap or
   * inadmissible set, a workload holding quota in its queue's admitted set and nowhere else, a finished
   * one nowhere. Returns the violations (empty when clean) and forgets the changed set.
   */
  List<String> checkTouchedWorkloads() {
    List<String> out = new ArrayList<>();
    for (Workload w : touched) {
      boolean admitted = w.cq.admitted.contains(w);
      int places = w.cq.pending.places(w);
      boolean heap = w.inHeap() && w.part.members.contains(w);
      boolean parked = w.inadmissible() && w.part.members.contains(w);
      boolean held = engine.queueLifecycle.isHeld(w);
      String where = "heap=" + heap + " inadmissible=" + parked + " held=" + held + " admitted=" + admitted;
      if (engine.tas.secondPass.isQueued(w) && (!w.holdsQuota() || w.isEvicted())) {
        out.add("workload " + w.id() + " is queued for a second pass while " + w.state
            + (w.isEvicted() ? " (evicted)" : "") + ": only workloads holding quota, neither finished nor evicted, may");
      }
      switch (w.state) {
        case PENDING -> {
          if ((heap ? 1 : 0) + (parked ? 1 : 0) + (held ? 1 : 0) != 1 || admitted || places != (held ? 0 : 1)) {
            out.add("workload " + w.id() + " is PENDING but " + where);
          }
          if (parked && w.part.bucket != null && (w.requeueHeld || w.requeueAtMs != Workload.UNSET_TIME)) {
            out.add("workload " + w.id() + " is parked with its shape while its requeuing backoff runs");
          }
        }
        case RESERVED, RUNNING, EVICTING -> {
          if (!admitted || places > 0 || w.queued()) {
            out.add("workload " + w.id() + " is " + w.state + " but " + where);
          }
          if (w.state == WorkloadState.EVICTING && !w.isEvicted()) {
            out.add("workload " + w.id() + " is EVICTING without an Evicted=True condition");
          }
          if (w.state == WorkloadState.RUNNING && w.startedAtMs == Workload.UNSET_TIME) {
            out.add("workload " + w.id() + " is RUNNING without a start time");
          }
        }
        case FINISHED, REJECTED, DELETED, DEACTIVATED -> {
          if (admitted || places > 0 || held || w.queued()) {
            out.add("workload " + w.id() + " is " + w.state + " but " + where);
          }
        }
      }
    }
    touched.clear();
    return out;
  }
}
