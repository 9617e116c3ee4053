package batchsim.core.world.kueue;

import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import java.util.List;
import batchsim.core.kueue.KueueEngine;

/**
 * Admission fair sharing's LocalQueue samples (Kueue's LocalQueue reconciler, every usageSamplingInterval after
 * a LocalQueue's last update) as events of the Kueue adapter: one event at the earliest time the engine asks
 * for. Scheduled only when admission fair sharing is configured. Once nothing but samples and status records
 * is left, one last sample is taken (its status and gauge show the last change) and they stop: nothing they
 * order could still be admitted.
 */
final class UsageSamples {
  private static final long NONE = Long.MIN_VALUE;
  private final KueueAdmission admission;
  private long scheduledAt = NONE;

  UsageSamples(KueueAdmission admission) {
    this.admission = admission;
  }

  /** The engine wants a sample at {@code atMs} (MAX_VALUE: none). An earlier one already scheduled covers it. */
  void schedule(long atMs) {
    if (atMs == Long.MAX_VALUE || (scheduledAt != NONE && scheduledAt <= atMs)) {
      return;
    }
    scheduledAt = atMs;
    admission.loop.schedule(atMs, EventKind.LOCAL_QUEUE_USAGE_SAMPLE, admission, null);
  }

  /** An event fired: a superseded one does nothing. */
  void fired(long atMs, KueueEngine kueue) {
    if (atMs != scheduledAt) {
      return;
    }
    scheduledAt = NONE;
    EventLoop loop = admission.loop;
    boolean quiet = loop.pending() == loop.pending(EventKind.SAMPLE) + loop.pending(EventKind.STATUS_RECORD)
        + loop.pending(EventKind.LOCAL_QUEUE_USAGE_SAMPLE);
    // Kueue writes the sampled LocalQueues' status and usage gauge.
    List<String> sampled = kueue.admissionFairSharing().sample();
    if (admission.status != null) {
      admission.status.usageSampled(sampled);
    }
    admission.metrics.usageSampled(sampled);
    if (!quiet) {
      schedule(kueue.admissionFairSharing().nextSampleMs());
    }
  }
}
