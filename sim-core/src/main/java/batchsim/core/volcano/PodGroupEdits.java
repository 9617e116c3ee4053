package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.List;

/**
 * PodGroups and their jobs deleted while the engine runs. A PodGroup whose object is gone is {@code detached}:
 * Volcano's snapshot skips a job without a PodGroup ("The scheduling spec of Job is nil, ignore it"), while the
 * pods it still has on nodes keep holding them.
 */
public final class PodGroupEdits {
  private final VolcanoEngine engine;
  private final QueueEdits queues;

  public PodGroupEdits(VolcanoEngine engine, QueueEdits queues) {
    this.engine = engine;
    this.queues = queues;
  }

  /**
   * The job is deleted: its PodGroup goes with it (owner reference) and its bound pods terminate — they are
   * Releasing on their nodes until {@link #remove} after the grace period. Returns the pods that began to terminate.
   */
  public List<Pod> terminate(PodGroup pg) {
    detach(pg);
    List<Pod> out = new ArrayList<>();
    for (Pod p : pg.pods) {
      if (p.state == PodState.BINDING || p.state == PodState.RUNNING) {
        p.state = PodState.RELEASING;
        out.add(p);
      }
    }
    return out;
  }

  /** The terminated job's pods are gone from their nodes. */
  public void remove(PodGroup pg) {
    engine.deletePodGroup(pg);
  }

  /** The PodGroup object is deleted; the job and its pods stay. */
  public void detach(PodGroup pg) {
    pg.detached = true;
    pg.phase = PodGroupPhase.PENDING; // no object, no phase: counted again from the recreated PodGroup
    queues.podGroupDeleted(pg.queue.name);
  }

  /**
   * The job controller creates the PodGroup again (createOrUpdatePodGroup at its next sync): same name and queue,
   * phase Pending, a new creation time. A gang whose pods still run is Running again at the next session close.
   */
  public void recreate(PodGroup pg, long nowMs) {
    PodGroupSpec s = pg.spec;
    pg.spec = new PodGroupSpec(s.id(), s.queue(), s.minMember(), s.minTaskMember(), s.minResources(), s.priority(),
        nowMs);
    pg.phase = PodGroupPhase.PENDING;
    pg.condition = () -> "";
    pg.detached = false;
  }

  /** Whether the PodGroup object exists (not deleted, or recreated since). */
  public static boolean exists(PodGroup pg) {
    return !pg.detached;
  }
}
