package batchsim.core.world.kueue;

import batchsim.core.kueue.CheckState;
import batchsim.core.kueue.Condition;
import batchsim.core.kueue.ConditionType;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.model.ActionRefused;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.Durations;
import batchsim.core.model.ElasticAction;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.WorkloadAction;

/**
 * The timeline's workload actions under Kueue: finds the named workload, refuses what does not exist at that
 * time or what Kueue's webhooks refuse, and applies the rest to the engine ({@code KueueEngine.edits()}, the
 * admission-check path, the ProvisioningRequest controller) and to the world's books.
 */
final class WorkloadActionsApplier {
  /** What batch/v1 Job conditions say when the job ends (the Workload's Finished condition copies it). */
  static final String SUCCEEDED_MESSAGE = "Job finished successfully";
  static final String FAILED_MESSAGE = "Job has reached the specified backoff limit";

  private final KueueAdmission admission;

  WorkloadActionsApplier(KueueAdmission admission) {
    this.admission = admission;
  }

  void apply(ClusterAction a0) {
    if (a0 instanceof ElasticAction.ClassPattern p) {
      admission.runs.elastic.pattern(p);
      return;
    }
    WorkloadAction action = (WorkloadAction) a0;
    Workload w = live(action.workload());
    if (action instanceof ElasticAction.Scale a) {
      admission.runs.elastic.scale(w, a.pods());
    } else if (action instanceof WorkloadAction.Finish a) {
      for (Workload s : jobSlices(w)) {
        admission.runs.leave(s);
        admission.kueue.edits().finish(s, a.succeeded(), a.succeeded() ? SUCCEEDED_MESSAGE : FAILED_MESSAGE);
      }
      admission.runs.ended(w);
    } else if (action instanceof WorkloadAction.Delete) {
      for (Workload s : jobSlices(w)) {
        admission.runs.leave(s);
        admission.kueue.edits().delete(s);
      }
    } else if (action instanceof WorkloadAction.SetActive a) {
      admission.kueue.edits().setActive(w, a.active());
    } else if (action instanceof WorkloadAction.SetPriority a) {
      setPriority(w, a);
    } else if (action instanceof WorkloadAction.Move a) {
      move(w, a.localQueue());
    } else if (action instanceof WorkloadAction.SetCheckState a) {
      setCheckState(w, a);
    } else if (action instanceof WorkloadAction.SetProvisioningCondition a) {
      admission.provisioning.setCondition(w, a.check(), a.condition());
    } else {
      throw new IllegalArgumentException("unknown workload action " + action);
    }
    admission.requestBind();
  }

  /** [elastic] The job's slices that exist: the admitted one a waiting newer slice replaces, then the newest. */
  private java.util.List<Workload> jobSlices(Workload w) {
    Workload held = w.replacementFor();
    return held != null && admission.live.contains(held) ? java.util.List.of(held, w) : java.util.List.of(w);
  }

  /**
   * The workload named, as its id or as "namespace/name" (a name-only id lives in its LocalQueue's namespace);
   * refused unless it exists now: arrived, and neither finished nor deleted since it last arrived.
   */
  private Workload live(String name) {
    Workload w = find(name);
    String why = admission.ended.refusal(name, w == null ? -1 : ((WorkloadRun) w.runtime).seq);
    if (why != null) {
      throw new ActionRefused("workload " + name + " does not exist: " + why);
    }
    if (w == null) {
      throw new ActionRefused("workload " + name + " does not exist: it has not arrived (yet)");
    }
    return w;
  }

  /** Why an ended workload no longer exists. */
  static String refusal(Workload w) {
    return switch (w.state()) {
      case FINISHED -> "it finished at " + Durations.format(w.finishedAtMs());
      case DELETED -> "it was deleted at " + Durations.format(w.finishedAtMs());
      default -> throw new IllegalStateException(w.id() + " has not ended: " + w.state());
    };
  }

  /** The names a timeline action may give the workload ([elastic] a later slice: also its job's names). */
  static String[] names(Workload w) {
    String[] own = names(w, w.id());
    if (w.jobName().equals(w.id())) {
      return own;
    }
    String[] job = names(w, w.jobName());
    String[] all = java.util.Arrays.copyOf(own, own.length + job.length);
    System.arraycopy(job, 0, all, own.length, job.length);
    return all;
  }

  private static String[] names(Workload w, String id) {
    return id.indexOf('/') >= 0 ? new String[] {id} : new String[] {id, namespace(w) + "/" + id};
  }

  /** The last live workload so named ([elastic] a job's name finds its newest slice). */
  private Workload find(String name) {
    Workload found = null;
    for (Workload w : admission.live) {
      if (named(w, w.id(), name) || named(w, w.jobName(), name)) {
        found = w;
      }
    }
    return found;
  }

  private static boolean named(Workload w, String id, String name) {
    return id.equals(name) || (id.indexOf('/') < 0 && name.equals(namespace(w) + "/" + id));
  }

  private static String namespace(Workload w) {
    return w.id().indexOf('/') >= 0 ? StatusRecorder.split(w.id())[0] : StatusRecorder.split(w.spec().localQueue())[0];
  }

  /** The job runs (unsuspended): Kueue admitted it (Admitted=True) and it still holds quota. */
  private static boolean jobRunning(Workload w) {
    Condition admitted = w.condition(ConditionType.ADMITTED);
    return w.holdingQuota() && admitted != null && admitted.status();
  }

  /**
   * Kueue jobframework ValidateUpdateForWorkloadPriorityClassName: no class may be added to a running job.
   * [elastic] Kueue syncWorkloadSlicePriority: the change applies to a waiting replacement slice and to the slice
   * holding quota it waits behind (both are ordered against other workloads in preemption).
   */
  private void setPriority(Workload w, WorkloadAction.SetPriority a) {
    for (Workload s : jobSlices(w)) {
      if (a.priorityClass() != null && s.spec().priorityClass() == null && jobRunning(s)) {
        throw new ActionRefused("workload " + s.id() + ": metadata.labels[kueue.x-k8s.io/priority-class]: Invalid "
            + "value: \"" + a.priorityClass() + "\": WorkloadPriorityClass cannot be added to a non-suspended workload");
      }
    }
    for (Workload s : jobSlices(w)) {
      admission.kueue.edits().setPriority(s, a.priority(), a.priorityClass());
      admission.multiKueue.priorityChanged(s);
    }
  }

  /**
   * Kueue jobframework validateUpdateForQueueName: the queue-name label of a job that is not suspended (its
   * workload Admitted) is immutable. A workload holding quota without being admitted (checks pending, or being
   * evicted) keeps its reservation in its ClusterQueue while Kueue would rename its queue: not modelled, refused.
   * [elastic] A job's waiting replacement slice is checked with the slice holding quota it waits behind: the job
   * runs on that one.
   */
  private void move(Workload w, String localQueue) {
    if (localQueue.equals(w.spec().localQueue())) {
      return;
    }
    for (Workload s : jobSlices(w)) {
      if (jobRunning(s)) {
        throw new ActionRefused("workload " + s.id() + ": metadata.labels[kueue.x-k8s.io/queue-name]: Invalid value: \""
            + StatusRecorder.split(localQueue)[1] + "\": field is immutable"
            + (s == w ? "" : " (its job runs on it while " + w.id() + " waits to replace it)"));
      }
      if (s.holdingQuota()) {
        throw new ActionRefused("workload " + s.id() + " holds quota in ClusterQueue " + s.clusterQueueName()
            + (s.state() == WorkloadState.EVICTING ? " while it is evicted" : " while its admission checks run")
            + ": only a workload without a reservation can be moved");
      }
    }
    String ns = StatusRecorder.split(localQueue)[0];
    if (!ns.equals(namespace(w))) {
      throw new ActionRefused("workload " + w.id() + " is in namespace " + namespace(w) + ": Kueue looks its LocalQueue "
          + localQueue + " up in that namespace");
    }
    String cq = null;
    for (LocalQueueSpec lq : admission.spec.localQueues()) {
      if (lq.name().equals(localQueue)) {
        cq = lq.clusterQueue();
      }
    }
    for (int i = 0; i < admission.spec.clusterQueues().size(); i++) {
      if (admission.spec.clusterQueues().get(i).name().equals(cq)) {
        ((WorkloadRun) w.runtime).queue = i; // its books follow it to the new ClusterQueue
      }
    }
    admission.kueue.edits().move(w, localQueue, cq);
  }

  /**
   * An admission check's verdict for the workload's current reservation, through the engine's admission-check
   * path. Refused when there is no reservation to check (pending, or being evicted: Kueue resets the checks),
   * when its ClusterQueue has no such check, and for Pending on an admitted workload (Kueue would suspend the
   * running job until the check is Ready again: not modelled).
   */
  private void setCheckState(Workload w, WorkloadAction.SetCheckState a) {
    if (!w.holdingQuota() || w.state() == WorkloadState.EVICTING) {
      throw new ActionRefused("workload " + w.id() + " holds no quota reservation to check ("
          + (w.state() == WorkloadState.EVICTING ? "it is being evicted" : "it is " + w.state().name().toLowerCase())
          + ")");
    }
    if (w.check(a.check()) == null) {
      throw new ActionRefused("ClusterQueue " + w.clusterQueueName() + " of workload " + w.id()
          + " has no admission check " + a.check() + (w.checks().isEmpty() ? "" : " (its checks: "
          + String.join(", ", w.checks().keySet()) + ")"));
    }
    CheckState state = CheckState.valueOf(a.state().name());
    if (state == CheckState.PENDING && jobRunning(w)) {
      throw new ActionRefused("workload " + w.id() + " is admitted: a check turning Pending again would suspend its "
          + "running job, which batchsim does not model");
    }
    admission.setCheckState(w, a.check(), state, 0, a.message());
  }
}
