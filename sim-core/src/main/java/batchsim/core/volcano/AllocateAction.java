package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's allocate action (actions/allocate/allocate.go) for jobs without network topology or sub-group
 * policies: queues in queue order, one job per queue pop, its pending tasks in task order; each task must be
 * Allocatable for its queue, pass the predicates and fit a node (idle first, else future idle, which
 * pipelines it). The job's statement is committed (binds) only when the gang is ready; a pipelined-only job
 * keeps its session allocations uncommitted (they still hold queue and node capacity for the rest of the
 * session); anything else is discarded. The queue goes back with its updated share, so queues interleave.
 */
final class AllocateAction implements Action {
  @Override
  public void execute(Session ssn) {
    GoHeap<Queue> queues = new GoHeap<>(ssn.plugins::queueOrderLess);
    Map<Queue, GoHeap<JobInfo>> jobsByQueue = new HashMap<>();
    Map<JobInfo, GoHeap<TaskInfo>> tasksByJob = new HashMap<>();
    boolean enqueueConfigured = ssn.engine.configuredActions.contains("enqueue");
    for (JobInfo job : ssn.jobs) {
      if (job.isPending()) {
        if (enqueueConfigured) {
          continue;
        }
        // Volcano: without the enqueue action, allocate moves Pending PodGroups to Inqueue itself.
        job.phase = PodGroupPhase.INQUEUE;
      }
      if (ssn.plugins.jobValid(job) != null) {
        continue;
      }
      // Best-effort tasks are left to backfill.
      GoHeap<TaskInfo> tasks = ssn.pendingTasks(job, t -> !t.resreq.isEmpty(ssn.dims.pods));
      if (tasks.isEmpty()) {
        continue;
      }
      GoHeap<JobInfo> jobs = jobsByQueue.get(job.queue);
      if (jobs == null) {
        jobs = new GoHeap<>(ssn.plugins::jobOrderLess);
        jobsByQueue.put(job.queue, jobs);
        queues.push(job.queue);
      }
      jobs.push(job);
      tasksByJob.put(job, tasks);
    }

    while (!queues.isEmpty()) {
      Queue queue = queues.pop();
      if (ssn.plugins.overused(queue)) {
        continue;
      }
      GoHeap<JobInfo> jobs = jobsByQueue.get(queue);
      if (jobs == null || jobs.isEmpty()) {
        continue;
      }
      JobInfo job = jobs.pop();
      GoHeap<TaskInfo> tasks = tasksByJob.get(job);
      Statement stmt = allocateForTasks(ssn, job, tasks);
      if (stmt != null && ssn.plugins.jobReady(job)) {
        stmt.commit();
        if (!tasks.isEmpty()) {
          jobs.push(job);
        }
      }
      queues.push(queue);
    }
  }

  /** allocateResourcesForTasks: returns the statement when the job is ready or pipelined, else discards it. */
  static Statement allocateForTasks(Session ssn, JobInfo job, GoHeap<TaskInfo> tasks) {
    if (ssn.nodes.isEmpty()) {
      return null;
    }
    Statement stmt = ssn.statement();
    while (!tasks.isEmpty()) {
      TaskInfo task = tasks.pop();
      if (!ssn.plugins.allocatable(job.queue, task)) {
        continue;
      }
      if (job.taskHasFitErrors(task)) {
        job.fitErrors.put(task, "task role " + task.role + " already failed the predicates");
        continue;
      }
      String[] why = new String[1];
      List<NodeInfo> feasible = NodeSearch.feasible(ssn, task, ssn.nodes,
          (t, n) -> NodeSearch.allocatePredicate(ssn, t, n), why);
      if (feasible.isEmpty()) {
        job.fitErrors.put(task, why[0] == null ? "no node" : why[0]);
        // Volcano: keep going only if the remaining tasks could still make the gang.
        if (job.needContinueAllocating()) {
          continue;
        }
        break;
      }
      NodeInfo best = prioritize(ssn, task, feasible);
      if (best == null) {
        continue;
      }
      if (task.resreq.lessEqual(best.idle, false)) {
        stmt.allocate(task, best);
      } else if (task.resreq.lessEqual(best.futureIdle(), false)) {
        stmt.pipeline(task, best);
      }
      if (ssn.plugins.jobReady(job)) {
        break;
      }
    }
    if (ssn.plugins.jobReady(job) || ssn.plugins.jobPipelined(job)) {
      return stmt;
    }
    stmt.discard();
    return null;
  }

  /** prioritizeNodes: the best node among those the task fits idle, else among those it fits future idle. */
  static NodeInfo prioritize(Session ssn, TaskInfo task, List<NodeInfo> feasible) {
    List<NodeInfo> idle = new ArrayList<>();
    List<NodeInfo> future = new ArrayList<>();
    for (NodeInfo n : feasible) {
      if (task.resreq.lessEqual(n.idle, false)) {
        idle.add(n);
      } else if (task.resreq.lessEqual(n.futureIdle(), false)) {
        future.add(n);
      }
    }
    NodeInfo best = ssn.bestNode(task, idle);
    return best != null ? best : ssn.bestNode(task, future);
  }
}
