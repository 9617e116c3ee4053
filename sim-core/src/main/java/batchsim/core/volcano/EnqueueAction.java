package batchsim.core.volcano;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Volcano's enqueue action (actions/enqueue/enqueue.go): queues in queue order, each queue's Pending jobs in
 * job order; a job moves to Inqueue when it has no minResources or the plugins' vote permits, and only then do
 * the JobEnqueued hooks commit its reservation (PR #5339: the vote is side-effect free, so a rejection leaves
 * nothing to roll back). Rejected jobs are skipped without blocking later ones. Queue shares do not change
 * during enqueue, so queues are drained one after another (a Volcano quirk kept as is).
 */
final class EnqueueAction implements Action {
  @Override
  public void execute(Session ssn) {
    GoHeap<Queue> queues = new GoHeap<>(ssn.plugins::queueOrderLess);
    Set<Queue> seen = new HashSet<>();
    Map<Queue, GoHeap<JobInfo>> jobsByQueue = new HashMap<>();
    AdmissionAudit audit = new AdmissionAudit(ssn);
    for (JobInfo job : ssn.jobs) {
      if (seen.add(job.queue)) {
        queues.push(job.queue);
      }
      if (job.isPending()) {
        jobsByQueue.computeIfAbsent(job.queue, q -> new GoHeap<>(ssn.plugins::jobOrderLess)).push(job);
      }
    }
    while (!queues.isEmpty()) {
      Queue queue = queues.pop();
      GoHeap<JobInfo> jobs = jobsByQueue.get(queue);
      if (jobs == null || jobs.isEmpty()) {
        continue;
      }
      JobInfo job = jobs.pop();
      if (!job.hasMinResources() || ssn.plugins.jobEnqueueable(job)) {
        ssn.plugins.jobEnqueued(job);
        job.phase = PodGroupPhase.INQUEUE;
        audit.admitted(job);
      }
      queues.push(queue);
    }
  }
}
