package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Volcano's reclaim action (actions/reclaim/reclaim.go): cross-queue. For every starving job of an admitted,
 * valid PodGroup (queues in queue order, overused queues skipped), each pending task that passes the
 * Preemptive gate looks for a node where evicting Running, preemptable tasks of other, reclaimable queues —
 * as the Reclaimable plugins allow, in victim order — frees enough; it is then pipelined there. The job's
 * evictions are committed only if it ends up pipelined.
 */
final class ReclaimAction implements Action {
  @Override
  public void execute(Session ssn) {
    GoHeap<Queue> queues = new GoHeap<>(ssn.plugins::queueOrderLess);
    Set<Queue> seen = new HashSet<>();
    Map<Queue, GoHeap<JobInfo>> preemptors = new HashMap<>();
    Map<JobInfo, GoHeap<TaskInfo>> preemptorTasks = new HashMap<>();
    for (JobInfo job : ssn.jobs) {
      if (job.isPending() || ssn.plugins.jobValid(job) != null) {
        continue;
      }
      if (seen.add(job.queue)) {
        queues.push(job.queue);
      }
      if (ssn.plugins.jobStarving(job)) {
        preemptors.computeIfAbsent(job.queue, q -> new GoHeap<>(ssn.plugins::jobOrderLess)).push(job);
        preemptorTasks.put(job, ssn.pendingTasks(job, t -> true));
      }
    }

    while (!queues.isEmpty()) {
      Queue queue = queues.pop();
      if (ssn.plugins.overused(queue)) {
        continue;
      }
      while (true) {
        GoHeap<JobInfo> jobs = preemptors.get(queue);
        if (jobs == null || jobs.isEmpty()) {
          break;
        }
        JobInfo job = jobs.pop();
        Statement stmt = ssn.statement();
        while (ssn.plugins.jobStarving(job)) {
          GoHeap<TaskInfo> tasks = preemptorTasks.get(job);
          if (tasks == null || tasks.isEmpty()) {
            break;
          }
          TaskInfo task = tasks.pop();
          if (!ssn.plugins.preemptive(queue, List.of(task))) {
            continue;
          }
          reclaimForTask(ssn, stmt, task, job);
        }
        if (ssn.plugins.jobPipelined(job)) {
          stmt.commit();
        } else {
          stmt.discard();
        }
        if (!jobs.isEmpty()) {
          queues.push(queue);
        }
      }
    }
  }

  private static void reclaimForTask(Session ssn, Statement stmt, TaskInfo task, JobInfo job) {
    List<NodeInfo> candidates = NodeSearch.feasible(ssn, task, ssn.nodes, ssn.plugins::predicateForPreempt, null);
    for (NodeInfo n : candidates) {
      List<TaskInfo> reclaimees = new ArrayList<>();
      for (Map.Entry<TaskInfo, TaskStatus> e : n.tasks.entrySet()) {
        TaskInfo t = e.getKey();
        if (e.getValue() != TaskStatus.RUNNING || !t.preemptable || !ssn.inSession(t.job)) {
          continue;
        }
        if (t.job.queue != job.queue && t.job.queue.spec.reclaimable()) {
          reclaimees.add(t);
        }
      }
      if (reclaimees.isEmpty()) {
        continue;
      }
      List<TaskInfo> victims = ssn.plugins.reclaimable(task, reclaimees);
      if (!victimsSuffice(task, n, victims)) {
        continue;
      }
      GoHeap<TaskInfo> victimsQueue = ssn.victimsQueue(victims, task);
      Res available = n.futureIdle();
      Statement nodeStmt = ssn.statement();
      while (!victimsQueue.isEmpty()) {
        if (task.resreq.lessEqual(available, false)) {
          break;
        }
        TaskInfo reclaimee = victimsQueue.pop();
        nodeStmt.evict(reclaimee, "reclaim");
        available.add(reclaimee.resreq);
      }
      if (!task.resreq.lessEqual(available, false)) {
        nodeStmt.discard();
        continue;
      }
      nodeStmt.pipeline(task, n);
      stmt.merge(nodeStmt);
      break;
    }
  }

  /** util.ValidateVictims: the node's future idle plus the victims covers the request. */
  static boolean victimsSuffice(TaskInfo preemptor, NodeInfo node, List<TaskInfo> victims) {
    Res futureIdle = node.futureIdle();
    for (TaskInfo v : victims) {
      futureIdle.add(v.resreq);
    }
    return preemptor.resreq.lessEqual(futureIdle, false);
  }
}
