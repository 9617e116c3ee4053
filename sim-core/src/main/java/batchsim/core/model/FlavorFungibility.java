package batchsim.core.model;

/** Kueue flavorFungibility. {@code preference} null means Kueue's default (BorrowingOverPreemption). */
public record FlavorFungibility(
    FungibilityPolicy whenCanBorrow, FungibilityPolicy whenCanPreempt, FungibilityPreference preference) {

  /** Kueue defaults: whenCanBorrow=MayStopSearch, whenCanPreempt=TryNextFlavor. */
  public static final FlavorFungibility DEFAULT =
      new FlavorFungibility(FungibilityPolicy.MAY_STOP_SEARCH, FungibilityPolicy.TRY_NEXT_FLAVOR, null);

  public FungibilityPreference effectivePreference() {
    return preference == null ? FungibilityPreference.BORROWING_OVER_PREEMPTION : preference;
  }
}
