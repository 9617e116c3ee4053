package batchsim.core.world.kueue;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventTarget;
import batchsim.core.kueue.Scheduler.CycleOutcome;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.model.ControllerPaceConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The controllers' own pace ({@code kueue.controllerPace}; off, every method here is the identity): a cycle
 * takes the time {@link CycleCost} gives it, and Kueue's API writes share one {@link ClientRateLimiter}.
 * Kueue's cache holds an admitted workload's quota from the cycle's decision (the scheduler assumes it, then
 * writes the admission asynchronously), but the job sees Admitted only once the write landed: its runtime starts
 * then. A victim's quota comes back once its Evicted write landed and the job's controller reacted; a finished
 * job's once its Finished write reached Kueue. Pending heads whose condition changed spend tokens too. The
 * limiter is the Workload resource's: controller-runtime gives each resource its own REST client and
 * token bucket, so ClusterQueue and LocalQueue status updates do not compete with these writes.
 */
final class ControllerPace implements EventTarget {
  private final KueueAdmission kueue;
  private final ControllerPaceConfig config;
  /** The running process's client: a restarted Kueue starts with a full bucket. */
  private ClientRateLimiter client;
  private final CycleCost cost;
  /** Admissions the running cycle made: written when it ends. */
  private final List<Workload> admittedInCycle = new ArrayList<>();
  private boolean inCycle;
  /** When the running cycle's eviction writes are done (the cycle waits for them). */
  private long evictionsWrittenMs;
  /** When the last cycle ends, microseconds (costs below a millisecond add up). */
  private long cycleEndUs;

  private ControllerPace(KueueAdmission kueue, ControllerPaceConfig config) {
    this.kueue = kueue;
    this.config = config;
    this.client = config == null ? null : new ClientRateLimiter(config.clientQps(), config.clientBurst());
    this.cost = config == null ? null : CycleCost.of(config);
  }

  static ControllerPace of(KueueAdmission kueue) {
    return new ControllerPace(kueue, kueue.spec.kueue().controllerPace());
  }

  boolean on() {
    return config != null;
  }

  void cycleStarts() {
    inCycle = on();
  }

  /**
   * The cycle that started now is over; returns when it ends. Kueue's cycle computes (its {@link CycleCost}),
   * issues admissions asynchronously (a goroutine each), waits for its preemptions' evictions (issued in
   * parallel) and then patches each pending head whose condition changed, one after the other: the cycle
   * waits in the client's bucket behind every write queued before.
   */
  long cycleEnded(CycleOutcome o) {
    inCycle = false;
    long now = kueue.loop.now();
    if (!on()) {
      return now;
    }
    cycleEndUs = Math.max(cycleEndUs, now * 1_000) + cost.micros(o, kueue.spec.clusterQueues().size());
    long computed = -Math.floorDiv(-cycleEndUs, 1_000);
    for (Workload w : admittedInCycle) {
      writeAdmission(w, computed);
    }
    admittedInCycle.clear();
    long end = Math.max(computed, evictionsWrittenMs);
    for (int i = 0; i < o.statusWrites(); i++) {
      end = client.acquireMs(end) + config.writeLatencyMs();
    }
    evictionsWrittenMs = 0;
    cycleEndUs = Math.max(cycleEndUs, end * 1_000);
    return end;
  }

  /** Kueue admitted {@code w} (quota held from now): the job sees it once the admission write landed. */
  void admitted(Workload w) {
    if (!on()) {
      kueue.runs.admitted(w);
      return;
    }
    kueue.runs.reserved(w); // the books count the quota from the decision, as Kueue's cache does
    if (inCycle) {
      admittedInCycle.add(w);
    } else {
      writeAdmission(w, kueue.loop.now());
    }
  }

  private void writeAdmission(Workload w, long atMs) {
    long landed = client.acquireMs(atMs) + config.writeLatencyMs();
    kueue.loop.schedule(landed + config.watchLatencyMs(), EventKind.API_WRITE, this,
        new AdmissionSeen(w, w.reservedAtMs()));
  }

  /**
   * A victim evicted now: when its quota can start to go (its grace period follows). Kueue writes Evicted
   * (the cycle waits for it), the job's controller sees it and stops the job (the perf test's runner unsets
   * the reservation: its own client's write), and Kueue sees that.
   */
  long evictionSeenAt() {
    long now = kueue.loop.now();
    if (!on()) {
      return now;
    }
    long landed = client.acquireMs(now) + config.writeLatencyMs();
    if (inCycle) {
      evictionsWrittenMs = Math.max(evictionsWrittenMs, landed);
    }
    return landed + config.watchLatencyMs() + config.writeLatencyMs() + config.watchLatencyMs();
  }

  /** How long after a job's runtime ends Kueue sees it Finished (the job's controller writes it). */
  long finishSeenAfterMs() {
    return on() ? config.writeLatencyMs() + config.watchLatencyMs() : 0;
  }

  /**
   * Kueue's controller manager started again: a new process, with a new client (full bucket) and no cycle
   * behind it. Writes the old process had issued still land; their effects wait for it (see handle).
   */
  void restarted() {
    if (on()) {
      client = new ClientRateLimiter(config.clientQps(), config.clientBurst());
      cycleEndUs = 0;
      evictionsWrittenMs = 0;
    }
  }

  @Override
  public void handle(Event e) {
    // Kueue's job reconciler unsuspends the job: while Kueue is down the landed write waits for it.
    if (kueue.downtime.deferred(e)) {
      return;
    }
    AdmissionSeen s = (AdmissionSeen) e.payload();
    // Still holding the reservation the write was for: not evicted, finished or deleted meanwhile.
    if (s.w().state() == WorkloadState.RESERVED && s.w().reservedAtMs() == s.reservedAtMs()) {
      kueue.runs.admitted(s.w());
    }
  }

  /** An admission write in flight. */
  private record AdmissionSeen(Workload w, long reservedAtMs) {
    @Override
    public String toString() {
      return w.id();
    }
  }
}
