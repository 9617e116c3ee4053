package batchsim.core.model;

/** Kueue ClusterQueue spec.admissionScope.admissionMode: whether admission fair sharing orders its LocalQueues. */
public enum AdmissionMode implements KueueEnum {
  USAGE_BASED_ADMISSION_FAIR_SHARING("UsageBasedAdmissionFairSharing"),
  NO_ADMISSION_FAIR_SHARING("NoAdmissionFairSharing");

  private final String kueueName;

  AdmissionMode(String kueueName) {
    this.kueueName = kueueName;
  }

  @Override
  public String kueueName() {
    return kueueName;
  }
}
