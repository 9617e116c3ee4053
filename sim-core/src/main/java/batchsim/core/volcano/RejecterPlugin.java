package batchsim.core.volcano;

/**
 * Volcano's test plugin {@code test-rejecter} (uthelper.RejecterPlugin): votes Reject in enqueue for the
 * PodGroup named by the argument {@code rejectJob}, Permit for every other job. Used to show that a co-tier
 * rejection leaves no phantom inqueue reservation (issue #5387).
 */
final class RejecterPlugin implements Plugin {
  static final String NAME = "test-rejecter";
  private final String rejectJob;

  RejecterPlugin(PluginSpec spec) {
    this.rejectJob = spec.argument("rejectJob");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session ssn) {
    ssn.plugins.addJobEnqueueableFn(NAME, job -> job.pg.spec.name().equals(rejectJob) ? REJECT : PERMIT);
  }
}
