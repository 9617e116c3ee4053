package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's backfill action (actions/backfill/backfill.go): places best-effort tasks (no requests) of
 * admitted, valid jobs, in queue/job/task order, on the best node that passes the predicates; pipelined
 * best-effort tasks are taken back first. No gang check: each placement is allocated (and dispatched once the
 * job is ready) directly.
 */
final class BackfillAction implements Action {
  @Override
  public void execute(Session ssn) {
    for (TaskInfo task : pendingTasks(ssn)) {
      String[] why = new String[1];
      List<NodeInfo> feasible = NodeSearch.feasible(ssn, task, ssn.nodes, ssn.plugins::predicate, why);
      if (feasible.isEmpty()) {
        task.job.fitErrors.put(task, why[0] == null ? "no node" : why[0]);
        continue;
      }
      NodeInfo node = feasible.size() == 1 ? feasible.get(0) : ssn.bestNode(task, feasible);
      ssn.allocateNow(task, node);
    }
  }

  private static List<TaskInfo> pendingTasks(Session ssn) {
    GoHeap<Queue> queues = new GoHeap<>(ssn.plugins::queueOrderLess);
    Map<Queue, GoHeap<JobInfo>> jobs = new HashMap<>();
    Map<JobInfo, GoHeap<TaskInfo>> tasks = new HashMap<>();
    for (JobInfo job : ssn.jobs) {
      if (job.isPending() || ssn.plugins.jobValid(job) != null) {
        continue;
      }
      GoHeap<TaskInfo> heap = null;
      for (TaskInfo t : job.tasks) {
        if (t.status == TaskStatus.PENDING && t.bestEffort) {
          heap = heap == null ? new GoHeap<>(ssn.plugins::taskOrderLess) : heap;
          heap.push(t);
        }
      }
      for (TaskInfo t : new ArrayList<>(job.tasks)) {
        if (t.status == TaskStatus.PIPELINED && t.bestEffort) {
          ssn.statement().unpipeline(t);
          heap = heap == null ? new GoHeap<>(ssn.plugins::taskOrderLess) : heap;
          heap.push(t);
        }
      }
      if (heap == null) {
        continue;
      }
      GoHeap<JobInfo> q = jobs.get(job.queue);
      if (q == null) {
        q = new GoHeap<>(ssn.plugins::jobOrderLess);
        jobs.put(job.queue, q);
        queues.push(job.queue);
      }
      q.push(job);
      tasks.put(job, heap);
    }
    List<TaskInfo> out = new ArrayList<>();
    while (!queues.isEmpty()) {
      GoHeap<JobInfo> q = jobs.get(queues.pop());
      while (!q.isEmpty()) {
        GoHeap<TaskInfo> t = tasks.get(q.pop());
        while (!t.isEmpty()) {
          out.add(t.pop());
        }
      }
    }
    return out;
  }
}
