package batchsim.core.world.volcano;

import batchsim.core.engine.EventLoop;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.VolcanoAction;
import batchsim.core.model.WorkloadAction;
import batchsim.core.volcano.QueueEdits;
import batchsim.core.volcano.ResourceList;
import batchsim.core.volcano.VolcanoQueueSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;

/** The timeline actions a Volcano run applies itself: its queues, and jobs and PodGroups deleted by name. */
final class VolcanoTimeline {
  private final QueueEdits queues;
  private final GangDeletion deletions;
  private final EventLoop loop;
  private final Runnable requestSession;

  VolcanoTimeline(QueueEdits queues, GangDeletion deletions, EventLoop loop, Runnable requestSession) {
    this.queues = queues;
    this.deletions = deletions;
    this.loop = loop;
    this.requestSession = requestSession;
  }

  /** Whether a Volcano run applies the action itself (the world's node and arrival actions aside). */
  static boolean applies(ClusterAction a) {
    return a instanceof VolcanoAction || a instanceof WorkloadAction.Delete;
  }

  /** The queues the timeline creates, as they start (for the run's report rows). */
  static List<VolcanoQueueSpec> createdQueues(List<TimelineEvent> timeline) {
    List<VolcanoQueueSpec> out = new ArrayList<>();
    for (TimelineEvent e : timeline) {
      if (e.action() instanceof VolcanoAction.CreateQueue c) {
        out.add(merge(VolcanoQueueSpec.of(c.name()), c.fields()));
      }
    }
    return out;
  }

  boolean apply(ClusterAction action) {
    if (action instanceof VolcanoAction.CreateQueue a) {
      queues.create(merge(VolcanoQueueSpec.of(a.name()), a.fields()), loop.now());
      deletions.recreatePodGroups();
    } else if (action instanceof VolcanoAction.UpdateQueue a) {
      VolcanoQueueSpec current = queues.spec(a.name());
      queues.update(merge(current == null ? VolcanoQueueSpec.of(a.name()) : current, a.fields()));
    } else if (action instanceof VolcanoAction.CloseQueue a) {
      queues.close(a.name());
    } else if (action instanceof VolcanoAction.OpenQueue a) {
      queues.open(a.name());
      deletions.recreatePodGroups();
    } else if (action instanceof VolcanoAction.DeleteQueue a) {
      queues.delete(a.name(), loop.now());
    } else if (action instanceof VolcanoAction.DeletePodGroup a) {
      deletions.deletePodGroup(a.workload());
    } else if (action instanceof WorkloadAction.Delete a) {
      deletions.deleteJob(a.workload());
    } else {
      return false;
    }
    requestSession.run();
    return true;
  }

  /** The spec with the given fields replaced. */
  static VolcanoQueueSpec merge(VolcanoQueueSpec s, VolcanoAction.QueueFields f) {
    VolcanoQueueSpec out = s;
    if (f.parent() != null) {
      out = out.withParent(f.parent());
    }
    if (f.weight() != null) {
      out = out.withWeight(f.weight());
    }
    if (f.capability() != null) {
      out = out.withCapability(list(f.capability()));
    }
    if (f.deserved() != null) {
      out = out.withDeserved(list(f.deserved()));
    }
    if (f.guarantee() != null) {
      out = out.withGuarantee(list(f.guarantee()));
    }
    if (f.priority() != null) {
      out = out.withPriority(f.priority());
    }
    if (f.reclaimable() != null) {
      out = out.withReclaimable(f.reclaimable());
    }
    return out;
  }

  private static ResourceList list(SortedMap<String, Long> amounts) {
    return new ResourceList(amounts);
  }
}
