package batchsim.core.model;

/** Kueue flavorFungibility.preference: which of borrowing or preemption is the lesser evil. */
public enum FungibilityPreference implements KueueEnum {
  BORROWING_OVER_PREEMPTION("BorrowingOverPreemption"),
  PREEMPTION_OVER_BORROWING("PreemptionOverBorrowing");

  private final String kueueName;

  FungibilityPreference(String kueueName) {
    this.kueueName = kueueName;
  }

  @Override
  public String kueueName() {
    return kueueName;
  }
}
