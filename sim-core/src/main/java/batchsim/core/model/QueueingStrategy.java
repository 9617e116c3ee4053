package batchsim.core.model;

/** Kueue: where a head that failed to admit goes back to (StrictFIFO keeps it at the head). */
public enum QueueingStrategy implements KueueEnum {
  STRICT_FIFO("StrictFIFO"),
  BEST_EFFORT_FIFO("BestEffortFIFO");

  private final String kueueName;

  QueueingStrategy(String kueueName) {
    this.kueueName = kueueName;
  }

  @Override
  public String kueueName() {
    return kueueName;
  }
}
