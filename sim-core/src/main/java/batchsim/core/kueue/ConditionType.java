package batchsim.core.kueue;

/** Kueue Workload condition types (apis/kueue/v1beta2/workload_types.go). */
public enum ConditionType {
  QUOTA_RESERVED("QuotaReserved"),
  ADMITTED("Admitted"),
  PODS_READY("PodsReady"),
  EVICTED("Evicted"),
  PREEMPTED("Preempted"),
  REQUEUED("Requeued"),
  FINISHED("Finished");

  private final String kueueName;

  ConditionType(String kueueName) {
    this.kueueName = kueueName;
  }

  public String kueueName() {
    return kueueName;
  }
}
