package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's drf plugin (plugins/drf/drf.go) without hierarchy: jobs with the lower dominant share (allocated
 * over cluster total, the maximum over resources) go first, and a preemptor may only take from jobs whose
 * share after the eviction stays at or above its own after the allocation.
 */
final class DrfPlugin implements Plugin {
  static final String NAME = "drf";
  private static final double SHARE_DELTA = 0.000001;

  private final Map<JobInfo, Res> allocated = new HashMap<>();
  private final Map<JobInfo, Double> shares = new HashMap<>();
  private Res total;
  private Dims dims;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session ssn) {
    dims = ssn.dims;
    total = ssn.totalResource.copy();
    for (JobInfo job : ssn.jobs) {
      Res a = new Res(dims.size());
      for (TaskInfo t : job.tasks) {
        if (t.status.allocated()) {
          a.add(t.resreq);
        }
      }
      allocated.put(job, a);
      shares.put(job, share(a));
    }
    ssn.plugins.addPreemptableFn(NAME, (preemptor, preemptees) -> {
      List<TaskInfo> victims = new ArrayList<>();
      Res la = allocated.get(preemptor.job);
      if (la == null) {
        return new Victims(victims, PERMIT);
      }
      double ls = share(la.copy().add(preemptor.resreq));
      Map<JobInfo, Res> allocations = new HashMap<>();
      for (TaskInfo t : preemptees) {
        Res ra = allocations.computeIfAbsent(t.job, j -> allocated.get(j).copy());
        double rs = share(ra.sub(t.resreq));
        if (ls < rs || Math.abs(ls - rs) <= SHARE_DELTA) {
          victims.add(t);
        }
      }
      return new Victims(victims, PERMIT);
    });
    ssn.plugins.addJobOrderFn(NAME, (l, r) -> {
      double ls = shares.get(l);
      double rs = shares.get(r);
      return ls == rs ? 0 : ls < rs ? -1 : 1;
    });
    ssn.plugins.addEventHandler(new EventHandler(t -> update(t, 1), t -> update(t, -1)));
  }

  private void update(TaskInfo t, int sign) {
    Res a = allocated.get(t.job);
    if (a == null) {
      return;
    }
    if (sign > 0) {
      a.add(t.resreq);
    } else {
      a.sub(t.resreq);
    }
    shares.put(t.job, share(a));
  }

  private double share(Res a) {
    double s = 0;
    for (int i = 0; i < dims.size(); i++) {
      if (total.named(i)) {
        s = Math.max(s, Res.share(a.get(i), total.get(i)));
      }
    }
    return s;
  }
}
