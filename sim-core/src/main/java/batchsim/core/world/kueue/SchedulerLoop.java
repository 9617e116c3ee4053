package batchsim.core.world.kueue;

import batchsim.core.engine.EventKind;
import batchsim.core.kueue.Scheduler.CycleOutcome;

/**
 * The pace of Kueue's scheduler loop: a cycle is requested whenever something could change a decision and
 * runs after everything else at that instant ({@code kueue.cycleLatency} later when set), no sooner than the
 * loop's back-off allows. A cycle that changed nothing (every head went back to the active heap unchanged) is
 * not repeated until the next request: Kueue would spin on the same answer. Under {@code kueue.controllerPace}
 * a cycle lasts what {@link CycleCost} says and the next one starts after it (and after the back-off).
 */
final class SchedulerLoop {
  private static final long MAX_SLOW_DOWN_MS = 10;

  private final KueueAdmission kueue;
  private boolean cycleScheduled;
  private long slowDownMs;
  private long nextCycleNotBefore;

  SchedulerLoop(KueueAdmission kueue) {
    this.kueue = kueue;
  }

  void request() {
    if (!cycleScheduled) {
      cycleScheduled = true;
      long at = Math.max(kueue.loop.now() + kueue.spec.kueue().cycleLatencyMs(), nextCycleNotBefore);
      kueue.loop.schedule(at, EventKind.SCHEDULE, kueue, null);
    }
  }

  /** After a restart the scheduler starts afresh: its pending wake-ups were dropped, it runs a cycle now. */
  void restarted() {
    cycleScheduled = false;
    slowDownMs = 0;
    nextCycleNotBefore = kueue.loop.now();
    request();
  }

  /** The SCHEDULE event: one cycle, then the loop's back-off. */
  void cycle() {
    cycleScheduled = false;
    kueue.metrics.cycleStarts();
    kueue.pace.cycleStarts();
    CycleOutcome o = kueue.kueue.runCycle();
    long end = kueue.pace.cycleEnded(o); // now, unless the controller pace gives the cycle a duration
    kueue.metrics.cycleEnded(o);
    // Kueue's scheduler loop backs off after a cycle that admitted nothing (wait.SlowDown: 1 ms doubling
    // to 10 ms). A cycle that preempted also waits at least 1 ms: the evictions are API writes, and an
    // instant in virtual time must not host an unbounded preempt/readmit exchange.
    if (o.admitted() > 0 && o.preempted() == 0) {
      slowDownMs = 0;
    } else {
      slowDownMs = o.admitted() > 0 ? 1 : Math.min(slowDownMs == 0 ? 1 : slowDownMs * 2, MAX_SLOW_DOWN_MS);
    }
    nextCycleNotBefore = end + slowDownMs;
    if (o.changed()) {
      request();
    }
  }
}
