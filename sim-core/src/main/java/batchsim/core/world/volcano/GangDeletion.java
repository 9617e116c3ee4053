package batchsim.core.world.volcano;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.model.ActionRefused;
import batchsim.core.model.Durations;
import batchsim.core.volcano.Pod;
import batchsim.core.volcano.PodGroupEdits;
import batchsim.core.volcano.PodGroupPhase;
import batchsim.core.volcano.QueueEdits;
import batchsim.core.world.volcano.VolcanoWorkload.PodRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Workloads and PodGroups deleted by the timeline under Volcano.
 *
 * <p><b>A job deleted</b>: the garbage collector deletes its PodGroup and pods (owner references); bound pods
 * terminate and hold their nodes for the termination grace period (the scheduler sees them Releasing), pending
 * ones are gone at once. The workload is DELETED.
 *
 * <p><b>A PodGroup deleted</b>: the pods stay (they belong to the job, not to the PodGroup). Volcano's job
 * controller creates the PodGroup again at its next sync ({@code createOrUpdatePodGroup}, job_controller_actions.go)
 * — here at once — Pending, with a new creation time: an Inqueue gang loses its reservation and passes enqueue
 * again, a gang whose pods run is Running again at the next session close (as in issue #5385). While the queue is
 * not Open the PodGroup webhook refuses the new PodGroup and the job waits without one (the scheduler ignores
 * it); the PodGroup comes back when the queue opens or is created again.
 */
final class GangDeletion implements EventTarget {
  private final GangLifecycle gangs;
  private final PodGroupEdits podGroups;
  private final QueueEdits queues;
  private final EventLoop loop;
  private final long terminationGraceMs;
  private final Runnable requestSession;
  /** Workload id → why its arrival was rejected. */
  private final Map<String, String> rejected;
  /** Jobs whose PodGroup was deleted and not yet created again, in deletion order. */
  private final List<VolcanoWorkload> withoutPodGroup = new ArrayList<>();

  GangDeletion(GangLifecycle gangs, PodGroupEdits podGroups, QueueEdits queues, EventLoop loop,
      long terminationGraceMs, Runnable requestSession, Map<String, String> rejected) {
    this.gangs = gangs;
    this.podGroups = podGroups;
    this.queues = queues;
    this.loop = loop;
    this.terminationGraceMs = terminationGraceMs;
    this.requestSession = requestSession;
    this.rejected = rejected;
  }

  /** The workload's job is deleted. */
  void deleteJob(String id) {
    VolcanoWorkload w = existing(id);
    long now = loop.now();
    gangs.stop(w);
    w.generation++;
    if (w.admitted) {
      gangs.holding[w.queue]--;
    } else {
      gangs.pending[w.queue]--;
    }
    leaveInqueue(w);
    withoutPodGroup.remove(w);
    for (Pod p : podGroups.terminate(w.pg)) {
      gangs.unbound((PodRun) p.runtime);
      w.releasing++;
    }
    w.deleted = true;
    w.deletedMs = now;
    w.admitted = false;
    gangs.log(w, "Deleted", "JobDeleted", w.releasing + " pods terminating");
    loop.schedule(now + w.spec.graceMs(terminationGraceMs), EventKind.POD_GROUP_DELETE, this, w);
    requestSession.run();
  }

  /** The terminated job's pods are gone: their nodes and queue usage are free. */
  @Override
  public void handle(Event e) {
    VolcanoWorkload w = (VolcanoWorkload) e.payload();
    for (Pod p : w.pg.pods()) {
      PodRun r = (PodRun) p.runtime;
      if (r.pool >= 0) {
        gangs.hold(r, -1);
        r.pool = -1;
      }
    }
    w.releasing = 0;
    podGroups.remove(w.pg);
    gangs.ended(w, () -> "it was deleted at " + Durations.format(w.deletedMs));
    requestSession.run();
  }

  /** The workload's PodGroup is deleted; its job controller creates it again when the queue accepts it. */
  void deletePodGroup(String id) {
    VolcanoWorkload w = existing(id);
    if (withoutPodGroup.contains(w)) {
      throw new ActionRefused("podgroups.scheduling.volcano.sh \"" + w.pg.spec().name() + "\" not found (deleted, "
          + "not created again yet: " + queues.podGroupRefusal(w.queueName) + ")");
    }
    leaveInqueue(w);
    podGroups.detach(w.pg);
    gangs.log(w, "Deleted", "PodGroupDeleted", "PodGroup deleted; its job keeps its pods");
    withoutPodGroup.add(w);
    recreatePodGroups();
    requestSession.run();
  }

  /** Creates the PodGroups the job controller is waiting to create, where their queue now accepts them. */
  void recreatePodGroups() {
    for (VolcanoWorkload w : List.copyOf(withoutPodGroup)) {
      String refusal = queues.podGroupRefusal(w.queueName);
      if (refusal == null) {
        withoutPodGroup.remove(w);
        if (!w.finished) {
          podGroups.recreate(w.pg, loop.now());
          gangs.log(w, PodGroupPhase.PENDING.volcanoName(), "PodGroupCreated", "the job controller created the "
              + "PodGroup again");
        }
      } else {
        gangs.log(w, "PodGroupMissing", "AdmissionRefused", refusal);
      }
    }
  }

  /** An Inqueue PodGroup leaves the per-queue Inqueue count (its object is gone). */
  private void leaveInqueue(VolcanoWorkload w) {
    if (PodGroupEdits.exists(w.pg) && w.pg.phase() == PodGroupPhase.INQUEUE) {
      gangs.inqueue[w.queue]--;
    }
  }

  /** The batch workload named {@code id}, refused when it does not exist now. */
  private VolcanoWorkload existing(String id) {
    VolcanoWorkload found = null;
    for (VolcanoWorkload w : gangs.live) {
      if (!w.serving && w.spec.id().equals(id)) {
        found = w;
      }
    }
    String why = gangs.ended.refusal(id, found == null ? -1 : found.seq);
    if (why != null) {
      throw new ActionRefused("workload " + id + " does not exist: " + why);
    }
    if (found != null && found.deleted) {
      throw new ActionRefused("workload " + id + " does not exist: it was deleted at "
          + Durations.format(found.deletedMs));
    }
    if (found != null) {
      return found;
    }
    String rejectedWhy = rejected.get(id);
    throw new ActionRefused("workload " + id + " does not exist: "
        + (rejectedWhy == null ? "it has not arrived yet" : "its arrival was rejected (" + rejectedWhy + ")"));
  }
}
