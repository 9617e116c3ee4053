package batchsim.core.kueue;

/** Kueue AdmissionCheckState: what a check controller says about a workload holding quota. */
public enum CheckState {
  PENDING,
  READY,
  RETRY,
  REJECTED
}
