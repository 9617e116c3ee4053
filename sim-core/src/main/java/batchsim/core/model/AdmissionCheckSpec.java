package batchsim.core.model;

/**
 * A Kueue AdmissionCheck; batchsim models the ProvisioningRequest controller ({@code provisioning}) and
 * MultiKueue ({@code controllerName} {@link MultiKueueSpec#CONTROLLER_NAME}); another controller's check
 * stays Pending until the timeline sets its state.
 */
public record AdmissionCheckSpec(String name, ProvisioningSpec provisioning, String controllerName) {
  /** The ProvisioningRequest controller's name (kueue.ProvisioningRequestControllerName). */
  public static final String PROVISIONING = "kueue.x-k8s.io/provisioning-request";

  /** A ProvisioningRequest check (or, without {@code provisioning}, an external controller's). */
  public AdmissionCheckSpec(String name, ProvisioningSpec provisioning) {
    this(name, provisioning, provisioning == null ? "" : PROVISIONING);
  }

  /** MultiKueue's check: its workloads are dispatched to the worker clusters. */
  public boolean multiKueue() {
    return MultiKueueSpec.CONTROLLER_NAME.equals(controllerName);
  }
}
