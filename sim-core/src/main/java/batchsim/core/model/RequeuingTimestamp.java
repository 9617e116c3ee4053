package batchsim.core.model;

/**
 * Kueue waitForPodsReady.requeuingStrategy.timestamp: which time orders a workload evicted by
 * PodsReadyTimeout in the queue (Ordering.GetQueueOrderTimestamp).
 */
public enum RequeuingTimestamp implements KueueEnum {
  /** The Evicted condition's transition time (Kueue's default): the workload goes to the back. */
  EVICTION("Eviction"),
  /** The creation time: the workload keeps its original place. */
  CREATION("Creation");

  private final String kueueName;

  RequeuingTimestamp(String kueueName) {
    this.kueueName = kueueName;
  }

  @Override
  public String kueueName() {
    return kueueName;
  }
}
