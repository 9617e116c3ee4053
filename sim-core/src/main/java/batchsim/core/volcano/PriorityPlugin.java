package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's priority plugin (plugins/priority/priority.go): higher job priority first, higher pod priority
 * first; preemption only of lower-priority jobs (or, within a job, lower-priority tasks); a job starves while
 * not all of its tasks are placed.
 */
final class PriorityPlugin implements Plugin {
  static final String NAME = "priority";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session ssn) {
    ssn.plugins.addTaskOrderFn(NAME, (l, r) -> l.priority == r.priority ? 0 : l.priority > r.priority ? -1 : 1);
    ssn.plugins.addJobOrderFn(NAME, (l, r) -> l.priority == r.priority ? 0 : l.priority > r.priority ? -1 : 1);
    ssn.plugins.addPreemptableFn(NAME, (preemptor, preemptees) -> {
      List<TaskInfo> victims = new ArrayList<>();
      for (TaskInfo t : preemptees) {
        if (t.job != preemptor.job) {
          if (t.job.priority < preemptor.job.priority) {
            victims.add(t);
          }
        } else if (t.priority < preemptor.priority) {
          victims.add(t);
        }
      }
      return new Victims(victims, PERMIT);
    });
    ssn.plugins.addJobStarvingFn(NAME, job -> job.readyTaskNum() + job.waitingTaskNum() < job.tasks.size());
  }
}
