package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Volcano's preempt action (actions/preempt/preempt.go), normal (not topology-aware) preemption: first
 * between jobs of the same queue — a starving job's pending tasks evict tasks of other jobs of its queue that
 * the Preemptable plugins allow (priority: lower job priority; gang: keep minMember), committed only if the
 * job ends up pipelined — then between tasks of the same job.
 */
final class PreemptAction implements Action {
  @Override
  public void execute(Session ssn) {
    Map<Queue, GoHeap<JobInfo>> preemptors = new LinkedHashMap<>();
    Map<JobInfo, GoHeap<TaskInfo>> preemptorTasks = new HashMap<>();
    Map<Queue, List<JobInfo>> underRequest = new HashMap<>();
    for (JobInfo job : ssn.jobs) {
      if (job.isPending() || ssn.plugins.jobValid(job) != null || !ssn.plugins.jobStarving(job)) {
        continue;
      }
      preemptors.computeIfAbsent(job.queue, q -> new GoHeap<>(ssn.plugins::jobOrderLess)).push(job);
      underRequest.computeIfAbsent(job.queue, q -> new ArrayList<>()).add(job);
      preemptorTasks.put(job, ssn.pendingTasks(job, t -> true));
    }
    GoHeap<Queue> queues = new GoHeap<>(ssn.plugins::queueOrderLess);
    for (Queue q : preemptors.keySet()) {
      queues.push(q);
    }
    while (!queues.isEmpty()) {
      Queue queue = queues.pop();
      GoHeap<JobInfo> jobs = preemptors.get(queue);
      while (jobs != null && !jobs.isEmpty()) {
        JobInfo preemptorJob = jobs.pop();
        Statement stmt = ssn.statement();
        while (ssn.plugins.jobStarving(preemptorJob)) {
          GoHeap<TaskInfo> tasks = preemptorTasks.get(preemptorJob);
          if (tasks.isEmpty()) {
            break;
          }
          TaskInfo preemptor = tasks.pop();
          preempt(ssn, stmt, preemptor, t -> eligibleVictim(preemptor, t)
              && t.job.queue == preemptorJob.queue && preemptor.job != t.job);
        }
        if (ssn.plugins.jobPipelined(preemptorJob)) {
          stmt.commit();
        } else {
          stmt.discard();
        }
      }
      for (JobInfo job : underRequest.getOrDefault(queue, List.of())) {
        GoHeap<TaskInfo> intra = ssn.pendingTasks(job, t -> true);
        while (!intra.isEmpty()) {
          TaskInfo preemptor = intra.pop();
          Statement stmt = ssn.statement();
          boolean assigned = preempt(ssn, stmt, preemptor, t -> eligibleVictim(preemptor, t) && preemptor.job == t.job);
          if (!assigned) {
            stmt.discard();
            break;
          }
          stmt.commit();
        }
      }
    }
  }

  /** Running/Bound, preemptable, and a best-effort preemptor only evicts best-effort tasks. */
  private static boolean eligibleVictim(TaskInfo preemptor, TaskInfo t) {
    TaskStatus onNode = t.node == null ? t.status : t.node.tasks.getOrDefault(t, t.status);
    return onNode.preemptable() && !(preemptor.bestEffort && !t.bestEffort) && t.preemptable;
  }

  private static boolean preempt(Session ssn, Statement stmt, TaskInfo preemptor, Predicate<TaskInfo> filter) {
    List<NodeInfo> feasible = NodeSearch.feasible(ssn, preemptor, ssn.nodes, ssn.plugins::predicateForPreempt, null);
    Queue queue = preemptor.job.queue;
    for (NodeInfo node : ssn.sortNodes(preemptor, feasible)) {
      List<TaskInfo> preemptees = new ArrayList<>();
      for (TaskInfo t : node.tasks.keySet()) {
        if (ssn.inSession(t.job) && filter.test(t)) {
          preemptees.add(t);
        }
      }
      List<TaskInfo> victims = ssn.plugins.preemptable(preemptor, preemptees);
      if (!ReclaimAction.victimsSuffice(preemptor, node, victims)) {
        continue;
      }
      Statement nodeStmt = ssn.statement();
      GoHeap<TaskInfo> victimsQueue = ssn.victimsQueue(victims, preemptor);
      boolean fits = fits(ssn, queue, preemptor, node);
      while (!victimsQueue.isEmpty() && !fits) {
        nodeStmt.evict(victimsQueue.pop(), "preempt");
        fits = fits(ssn, queue, preemptor, node);
      }
      if (fits) {
        nodeStmt.pipeline(preemptor, node);
        stmt.merge(nodeStmt);
        return true;
      }
      nodeStmt.discard();
    }
    return false;
  }

  /** preemptorFitsOnNode: queue allocatable, resources fit future idle, predicates pass. */
  private static boolean fits(Session ssn, Queue queue, TaskInfo preemptor, NodeInfo node) {
    return ssn.plugins.allocatable(queue, preemptor) && preemptor.resreq.lessEqual(node.futureIdle(), false)
        && ssn.plugins.predicate(preemptor, node) == null;
  }
}
