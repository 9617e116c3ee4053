package batchsim.core.model;

/**
 * Quota of one resource in one flavor, in base units. {@link #UNLIMITED} marks an unset
 * borrowingLimit or lendingLimit (Kueue: nil means no limit).
 */
public record QuotaSpec(long nominal, long borrowingLimit, long lendingLimit) {
  public static final long UNLIMITED = -1;

  public static QuotaSpec nominal(long nominal) {
    return new QuotaSpec(nominal, UNLIMITED, UNLIMITED);
  }

  public boolean hasBorrowingLimit() {
    return borrowingLimit != UNLIMITED;
  }

  public boolean hasLendingLimit() {
    return lendingLimit != UNLIMITED;
  }
}
