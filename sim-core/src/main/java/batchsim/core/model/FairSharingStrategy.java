package batchsim.core.model;

/** Kueue fairSharing.preemptionStrategies (S2-a and S2-b of the fair-sharing KEP). */
public enum FairSharingStrategy implements KueueEnum {
  LESS_THAN_OR_EQUAL_TO_FINAL_SHARE("LessThanOrEqualToFinalShare"),
  LESS_THAN_INITIAL_SHARE("LessThanInitialShare");

  private final String kueueName;

  FairSharingStrategy(String kueueName) {
    this.kueueName = kueueName;
  }

  @Override
  public String kueueName() {
    return kueueName;
  }
}
