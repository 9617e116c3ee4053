package batchsim.core.model;

/** Kueue preemption policies for withinClusterQueue, reclaimWithinCohort and borrowWithinCohort. */
public enum PreemptionPolicy implements KueueEnum {
  NEVER("Never"),
  LOWER_PRIORITY("LowerPriority"),
  LOWER_OR_NEWER_EQUAL_PRIORITY("LowerOrNewerEqualPriority"),
  ANY("Any");

  private final String kueueName;

  PreemptionPolicy(String kueueName) {
    this.kueueName = kueueName;
  }

  @Override
  public String kueueName() {
    return kueueName;
  }
}
