package batchsim.core.world.kueue;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import java.util.ArrayList;
import java.util.List;

/**
 * Kueue's controller manager restarting, with an optional down time. While it is down nothing of Kueue's
 * runs: no scheduling cycle, no timer (inadmissible requeue, backoff, waitForPodsReady), no reaction of its
 * job, workload or provisioning controllers (a finished or evicted job keeps its quota, a new job gets no
 * Workload, a ProvisioningRequest's answer is not read). The cluster goes on: pods run, start and finish,
 * the autoscaler answers. When it is up again it rebuilds its in-memory state from the objects
 * ({@link batchsim.core.kueue.KueueEngine#restart}) and then handles, in their order, the events it missed.
 *
 * <p>Simplifications: a job that finished while Kueue was down keeps its pods bound until Kueue sees it,
 * and a ProvisioningRequest's nodes join when Kueue reads its answer (the whole event waits); both can only
 * delay pods that Kueue had not let run yet. A job created while Kueue is down keeps its creation time in
 * the queue order.
 */
final class ControllerDowntime implements EventTarget {
  private final KueueAdmission admission;
  private final EventLoop loop;
  private boolean down;
  private long upAt = -1;
  private final List<Runnable> missed = new ArrayList<>();
  /** Restarts completed so far. */
  int restarts;

  ControllerDowntime(KueueAdmission admission) {
    this.admission = admission;
    this.loop = admission.loop;
  }

  /** A restart now, up again after {@code downMs}; a restart while down extends the down time. */
  void restart(long downMs) {
    if (downMs <= 0 && !down) {
      up();
      return;
    }
    long at = loop.now() + Math.max(0, downMs);
    if (down && at <= upAt) {
      return;
    }
    down = true;
    upAt = at;
    loop.schedule(at, EventKind.CONTROLLER_RESTART, this, at);
  }

  /**
   * Whether Kueue is down; if so the event is kept for when it is up, except the scheduler's own wake-ups
   * (cycles, inadmissible requeues): the restart pushes every workload again and runs a cycle anyway.
   */
  boolean deferred(Event e) {
    if (!down) {
      return false;
    }
    if (e.kind() != EventKind.SCHEDULE && e.kind() != EventKind.INADMISSIBLE_REQUEUE) {
      missed.add(e::dispatch);
    }
    return true;
  }

  /** Whether Kueue is down; if so {@code action} (a job's Workload being created) waits for it. */
  boolean deferred(Runnable action) {
    if (down) {
      missed.add(action);
    }
    return down;
  }

  @Override
  public void handle(Event e) {
    if ((long) e.payload() == upAt) {
      up();
    }
  }

  private void up() {
    down = false;
    restarts++;
    admission.kueue.restart();
    admission.pace.restarted(); // a new process: a new API client
    List<Runnable> now = new ArrayList<>(missed);
    missed.clear();
    now.forEach(Runnable::run);
    admission.scheduler.restarted(); // its pending wake-ups were dropped: it runs a cycle now
  }
}
