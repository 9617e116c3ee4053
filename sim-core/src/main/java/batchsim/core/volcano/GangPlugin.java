package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's gang plugin (plugins/gang/gang.go): a job is valid only if its tasks can still make minMember and
 * every role's minimum; ready (its statement may be committed) when allocated tasks do; pipelined when
 * allocated plus pipelined do; starving (may preempt or reclaim) while below minMember. Not-ready jobs go
 * first, and a victim's job keeps at least minMember ready tasks. At session close, jobs that are not ready
 * get the Unschedulable condition.
 */
final class GangPlugin implements Plugin {
  static final String NAME = "gang";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session ssn) {
    ssn.plugins.addJobValidFn(NAME, job -> {
      if (!job.checkTaskValid()) {
        return "Not enough valid pods of each task for gang-scheduling";
      }
      int valid = job.validTaskNum();
      if (valid < job.minAvailable) {
        return "Not enough valid tasks for gang-scheduling, valid: " + valid + ", min: " + job.minAvailable;
      }
      return null;
    });
    EvictableFn keepGang = (preemptor, candidates) -> {
      List<TaskInfo> victims = new ArrayList<>();
      Map<JobInfo, Integer> occupied = new HashMap<>();
      for (TaskInfo t : candidates) {
        int n = occupied.computeIfAbsent(t.job, JobInfo::readyTaskNum);
        if (n > t.job.minAvailable) {
          occupied.put(t.job, n - 1);
          victims.add(t);
        }
      }
      return new Victims(victims, PERMIT);
    };
    ssn.plugins.addReclaimableFn(NAME, keepGang);
    ssn.plugins.addPreemptableFn(NAME, keepGang);
    ssn.plugins.addJobOrderFn(NAME, (l, r) -> {
      boolean lr = l.isReady();
      boolean rr = r.isReady();
      if (lr == rr) {
        return 0;
      }
      return lr ? 1 : -1;
    });
    ssn.plugins.addJobReadyFn(NAME, job -> job.checkTaskReady() && job.isReady());
    ssn.plugins.addJobPipelinedFn(NAME, job -> job.checkTaskPipelined() && job.isPipelined() ? PERMIT : REJECT);
    ssn.plugins.addJobStarvingFn(NAME, JobInfo::isStarving);
  }

  @Override
  public void onSessionClose(Session ssn) {
    for (JobInfo job : ssn.jobs) {
      if (job.tasks.isEmpty()) {
        continue;
      }
      if (!job.isReady()) {
        if (skipForReleasing(job)) {
          continue;
        }
        int unready = job.minAvailable - job.readyTaskNum();
        int tasks = job.tasks.size();
        ssn.unschedulable.add(job);
        String fit = job.fitErrors.isEmpty() ? "" : ": " + job.fitErrors.values().iterator().next();
        job.pg.condition = () -> "Unschedulable: " + unready + "/" + tasks + " tasks in gang unschedulable" + fit;
      } else {
        job.pg.condition = () -> "Scheduled: tasks in gang are ready to be scheduled";
      }
    }
  }

  /** shouldSkipUnschedulableForReleasing: terminating pods on nodes still fill the gang. */
  private static boolean skipForReleasing(JobInfo job) {
    int releasing = job.releasingScheduledTaskNum();
    if (releasing == 0 || job.count(TaskStatus.PENDING) > 0 || job.count(TaskStatus.PIPELINED) > 0) {
      return false;
    }
    return job.scheduledTaskNum() + releasing >= job.minAvailable;
  }
}
