package batchsim.core.model;

/** Kueue flavorFungibility.whenCanBorrow / whenCanPreempt. v1beta1's Borrow/Preempt mean MayStopSearch. */
public enum FungibilityPolicy implements KueueEnum {
  MAY_STOP_SEARCH("MayStopSearch"),
  TRY_NEXT_FLAVOR("TryNextFlavor");

  private final String kueueName;

  FungibilityPolicy(String kueueName) {
    this.kueueName = kueueName;
  }

  @Override
  public String kueueName() {
    return kueueName;
  }
}
