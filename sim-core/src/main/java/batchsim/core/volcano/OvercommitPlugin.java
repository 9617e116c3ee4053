package batchsim.core.volcano;

/**
 * Volcano's overcommit plugin (plugins/overcommit/overcommit.go): a cluster-wide enqueue gate. A PodGroup is
 * admitted only if its minResources plus every admitted PodGroup's reservation fit within the cluster's
 * capacity times {@code overcommit-factor} (default 1.2) minus what nodes already use.
 */
final class OvercommitPlugin implements Plugin {
  static final String NAME = "overcommit";
  static final double DEFAULT_FACTOR = 1.2;

  private final double factor;

  OvercommitPlugin(PluginSpec spec) {
    String f = spec.argument("overcommit-factor");
    double v;
    try {
      v = f == null ? DEFAULT_FACTOR : Double.parseDouble(f.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("overcommit: overcommit-factor '" + f + "' is not a number");
    }
    this.factor = v < 1.0 ? DEFAULT_FACTOR : v;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session ssn) {
    Dims dims = ssn.dims;
    Res used = new Res(dims.size());
    for (NodeInfo n : ssn.nodes) {
      used.add(n.used);
    }
    Res idle = ssn.totalResource.copy().multi(factor).sub(used);
    Res inqueue = new Res(dims.size());
    for (JobInfo job : ssn.jobs) {
      if (job.phase == PodGroupPhase.INQUEUE && job.hasMinResources()) {
        inqueue.add(job.minResources());
      } else if (job.phase == PodGroupPhase.RUNNING && job.hasMinResources()
          && job.allocatedTaskNum() >= job.pg.spec.minMember()) {
        inqueue.add(job.inqueueResource(dims));
      }
    }
    ssn.plugins.addJobEnqueueableFn(NAME, job -> {
      if (!job.hasMinResources()) {
        return PERMIT;
      }
      Res min = job.minResources();
      if (inqueue.copy().add(min).lessEqualWithDimension(idle, min, dims.pods)) {
        return PERMIT;
      }
      Res wanted = inqueue.copy().add(min);
      ssn.enqueueRejections.put(job, () -> "resource in cluster is overused: "
          + wanted.exceededDimensions(idle, min, dims));
      return REJECT;
    });
    ssn.plugins.addJobEnqueuedFn(NAME, job -> {
      if (job.hasMinResources()) {
        inqueue.add(job.minResources());
      }
    });
  }
}
