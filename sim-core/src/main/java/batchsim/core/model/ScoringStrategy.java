package batchsim.core.model;

/** kube-scheduler NodeResourcesFit scoring: spread (LeastAllocated, the default) or pack (MostAllocated). */
public enum ScoringStrategy implements KueueEnum {
  LEAST_ALLOCATED("LeastAllocated"),
  MOST_ALLOCATED("MostAllocated");

  private final String kueueName;

  ScoringStrategy(String kueueName) {
    this.kueueName = kueueName;
  }

  @Override
  public String kueueName() {
    return kueueName;
  }
}
