package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A PodGroup and its tasks inside one session (Volcano's JobInfo), with the gang arithmetic of
 * pkg/scheduler/api/job_info.go. Task counts are kept per status and per role so that the gang checks cost
 * O(roles), not O(tasks).
 */
final class JobInfo {
  private static final int STATUSES = TaskStatus.values().length;

  final PodGroup pg;
  final String uid;
  final Queue queue;
  final int priority;
  final long createdMs;
  final int minAvailable;
  final Map<String, Integer> taskMinAvailable;
  final int taskMinAvailableTotal;
  final List<TaskInfo> tasks = new ArrayList<>();
  final Res allocated;
  /** The PodGroup status phase as this session sees and changes it. */
  PodGroupPhase phase;
  /** Volcano's NodesFitErrors: tasks that found no node this session, with the reason. */
  final Map<TaskInfo, String> fitErrors = new LinkedHashMap<>();
  private final int[] counts = new int[STATUSES];
  private final Map<String, int[]> roleCounts = new HashMap<>();
  private int bestEffortPending;
  private final Map<String, Integer> roleBestEffortPending = new HashMap<>();
  private final int podsDim;

  JobInfo(PodGroup pg, int podsDim, int dims) {
    this.pg = pg;
    this.uid = pg.spec.id();
    this.queue = pg.queue;
    this.priority = pg.spec.priority();
    this.createdMs = pg.spec.createdMs();
    this.minAvailable = pg.spec.minMember();
    this.taskMinAvailable = pg.spec.minTaskMember();
    int total = 0;
    for (int m : taskMinAvailable.values()) {
      total += m;
    }
    this.taskMinAvailableTotal = total;
    this.allocated = new Res(dims);
    this.phase = pg.phase;
    this.podsDim = podsDim;
  }

  void addTask(TaskInfo t) {
    tasks.add(t);
    index(t, 1);
  }

  /** JobInfo.UpdateTaskStatus: re-indexes the task and keeps Allocated in step. */
  void updateTaskStatus(TaskInfo t, TaskStatus s) {
    index(t, -1);
    t.status = s;
    index(t, 1);
  }

  private void index(TaskInfo t, int sign) {
    counts[t.status.ordinal()] += sign;
    roleCounts.computeIfAbsent(t.role, r -> new int[STATUSES])[t.status.ordinal()] += sign;
    if (t.status == TaskStatus.PENDING && t.bestEffort) {
      bestEffortPending += sign;
      roleBestEffortPending.merge(t.role, sign, Integer::sum);
    }
    if (t.status.allocated()) {
      if (sign > 0) {
        allocated.add(t.resreq);
      } else {
        allocated.sub(t.resreq);
      }
    }
  }

  int count(TaskStatus s) {
    return counts[s.ordinal()];
  }

  boolean isPending() {
    return phase == PodGroupPhase.PENDING;
  }

  /** Bound + Binding + Running + Allocated + Succeeded. */
  int readyTaskNum() {
    return count(TaskStatus.BOUND) + count(TaskStatus.BINDING) + count(TaskStatus.RUNNING)
        + count(TaskStatus.ALLOCATED) + count(TaskStatus.SUCCEEDED);
  }

  int waitingTaskNum() {
    return count(TaskStatus.PIPELINED);
  }

  int pendingBestEffortTaskNum() {
    return bestEffortPending;
  }

  int allocatedTaskNum() {
    return count(TaskStatus.BOUND) + count(TaskStatus.BINDING) + count(TaskStatus.RUNNING)
        + count(TaskStatus.ALLOCATED);
  }

  int validTaskNum() {
    return allocatedTaskNum() + count(TaskStatus.SUCCEEDED) + count(TaskStatus.PIPELINED)
        + count(TaskStatus.PENDING);
  }

  int scheduledTaskNum() {
    return count(TaskStatus.RUNNING) + count(TaskStatus.BOUND) + count(TaskStatus.FAILED)
        + count(TaskStatus.SUCCEEDED);
  }

  /** Releasing tasks still on a node (they keep their gang slot while terminating). */
  int releasingScheduledTaskNum() {
    int n = 0;
    if (count(TaskStatus.RELEASING) > 0) {
      for (TaskInfo t : tasks) {
        if (t.status == TaskStatus.RELEASING && t.pod.node != null) {
          n++;
        }
      }
    }
    return n;
  }

  boolean isReady() {
    return readyTaskNum() + pendingBestEffortTaskNum() >= minAvailable;
  }

  boolean isPipelined() {
    return waitingTaskNum() + readyTaskNum() + pendingBestEffortTaskNum() >= minAvailable;
  }

  boolean isStarving() {
    return waitingTaskNum() + readyTaskNum() < minAvailable;
  }

  private int roleCount(String role, boolean allocatedOrSucceeded, boolean pipelined, boolean pending,
      boolean pendingBestEffort) {
    int[] c = roleCounts.get(role);
    if (c == null) {
      return 0;
    }
    int n = 0;
    for (TaskStatus s : TaskStatus.values()) {
      if ((allocatedOrSucceeded && (s.allocated() || s == TaskStatus.SUCCEEDED))
          || (pipelined && s == TaskStatus.PIPELINED) || (pending && s == TaskStatus.PENDING)) {
        n += c[s.ordinal()];
      }
    }
    if (pendingBestEffort && !pending) {
      n += roleBestEffortPending.getOrDefault(role, 0);
    }
    return n;
  }

  /** CheckTaskValid: each role can still reach its minimum (skipped when minMember < Σ role minimums). */
  boolean checkTaskValid() {
    if (minAvailable < taskMinAvailableTotal) {
      return true;
    }
    for (Map.Entry<String, Integer> e : taskMinAvailable.entrySet()) {
      if (e.getValue() == 0) {
        continue;
      }
      if (roleCount(e.getKey(), true, true, true, false) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** CheckTaskReady: allocated (and pending best-effort) tasks of every role reach its minimum. */
  boolean checkTaskReady() {
    if (minAvailable < taskMinAvailableTotal) {
      return true;
    }
    for (Map.Entry<String, Integer> e : taskMinAvailable.entrySet()) {
      if (roleCount(e.getKey(), true, false, false, true) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** CheckTaskPipelined: as checkTaskReady, counting pipelined tasks too. */
  boolean checkTaskPipelined() {
    if (minAvailable < taskMinAvailableTotal) {
      return true;
    }
    for (Map.Entry<String, Integer> e : taskMinAvailable.entrySet()) {
      if (roleCount(e.getKey(), true, true, false, true) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** Roles of the tasks that found no node this session. */
  java.util.Set<String> fitFailedRoles() {
    java.util.Set<String> roles = new java.util.HashSet<>();
    for (TaskInfo t : fitErrors.keySet()) {
      roles.add(t.role);
    }
    return roles;
  }

  /** TaskHasFitErrors: a task of the same (non-empty) role already failed to find a node. */
  boolean taskHasFitErrors(TaskInfo t) {
    if (t.role.isEmpty()) {
      return false;
    }
    for (TaskInfo f : fitErrors.keySet()) {
      if (f.role.equals(t.role)) {
        return true;
      }
    }
    return false;
  }

  /**
   * NeedContinueAllocating: after a task found no node, whether the rest of the job could still make the
   * gang (job minimum, or every failed role's minimum already met).
   */
  boolean needContinueAllocating() {
    if (minAvailable >= tasks.size()) {
      return false;
    }
    java.util.Set<String> failed = fitFailedRoles();
    if (minAvailable < taskMinAvailableTotal) {
      int left = 0;
      for (Map.Entry<String, int[]> e : roleCounts.entrySet()) {
        if (!failed.contains(e.getKey())) {
          left += e.getValue()[TaskStatus.PENDING.ordinal()];
        }
      }
      return readyTaskNum() + left >= minAvailable;
    }
    for (String role : failed) {
      int min = taskMinAvailable.getOrDefault(role, 0);
      if (min == 0) {
        continue;
      }
      if (roleCount(role, true, false, false, true) < min) {
        return false;
      }
    }
    return true;
  }

  /** The PodGroup's minResources, or an empty resource when unset (GetMinResources). */
  Res minResources() {
    return pg.minResources == null ? new Res(allocated.size()) : pg.minResources;
  }

  boolean hasMinResources() {
    return pg.minResources != null;
  }

  /** GetElasticResources: the part of Allocated above minResources. */
  Res elastic() {
    return Res.exceededPart(allocated, minResources());
  }

  /**
   * util.GetInqueueResource: minResources minus what the job already has allocated, per dimension named in
   * minResources (PR #5130, so Allocated/Binding tasks are not counted twice while the PodGroup is Inqueue).
   */
  Res inqueueResource(Dims dims) {
    Res min = pg.minResources;
    Res out = new Res(allocated.size());
    for (int i = 0; i < min.size(); i++) {
      if (!min.has(i)) {
        continue;
      }
      double reserved = min.get(i) - allocated.get(i);
      if (i <= Dims.MEMORY || i == podsDim) {
        if (reserved > 0) {
          if (i <= Dims.MEMORY) {
            out.v[i] = reserved;
          } else {
            out.setScalar(i, reserved);
          }
        }
      } else if (dims.name(i).equals("ephemeral-storage")) {
        continue; // not a scalar resource name for GetInqueueResource
      } else if (!allocated.has(i)) {
        out.setScalar(i, min.get(i));
      } else if (reserved > 0) {
        out.setScalar(i, reserved);
      }
    }
    return out;
  }

  /** Whether the job's PodGroup reserves inqueue resources this session (Inqueue, or Running with its gang). */
  boolean reservesInqueue() {
    if (pg.minResources == null) {
      return false;
    }
    return phase == PodGroupPhase.INQUEUE
        || (phase == PodGroupPhase.RUNNING && allocatedTaskNum() >= pg.spec.minMember());
  }

  @Override
  public String toString() {
    return uid;
  }
}
