package batchsim.core.model;

/**
 * An action on one workload, named by its id ({@link WorkloadSpec#id()}: "namespace/name" or a generated
 * name). The engine refuses ({@link ActionRefused}) a workload that does not exist at that time: not yet
 * arrived, or already finished or deleted.
 */
public interface WorkloadAction extends ClusterAction {
  String workload();

  /** The job ends: succeeded or failed (Kueue: Finished=True, reason Succeeded / Failed); quota is released. */
  record Finish(String workload, boolean succeeded) implements WorkloadAction {}

  /** The owner deletes the workload (and its job): it leaves its queue or releases its quota. */
  record Delete(String workload) implements WorkloadAction {}

  /** Kueue's {@code spec.active}: false evicts (reason Deactivated) and keeps it out of the queues. */
  record SetActive(String workload, boolean active) implements WorkloadAction {}

  /** The workload's priority changes (Kueue: a WorkloadPriorityClass value edit or a new class). */
  record SetPriority(String workload, int priority, String priorityClass) implements WorkloadAction {}

  /** The job's queue-name label changes to another LocalQueue (Kueue allows it while not admitted). */
  record Move(String workload, String localQueue) implements WorkloadAction {}

  /** An admission check controller's verdict on the workload's current reservation. */
  record SetCheckState(String workload, String check, CheckVerdict state, String message) implements WorkloadAction {}

  /** A condition on the workload's ProvisioningRequest, as the cluster autoscaler sets it. */
  record SetProvisioningCondition(String workload, String check, ProvisioningCondition condition)
      implements WorkloadAction {}

  /** Kueue's AdmissionCheckState values. */
  enum CheckVerdict implements KueueEnum {
    PENDING("Pending"),
    READY("Ready"),
    RETRY("Retry"),
    REJECTED("Rejected");

    private final String kueueName;

    CheckVerdict(String kueueName) {
      this.kueueName = kueueName;
    }

    @Override
    public String kueueName() {
      return kueueName;
    }
  }

  /** The ProvisioningRequest conditions Kueue's provisioning controller reacts to. */
  enum ProvisioningCondition implements KueueEnum {
    PROVISIONED("Provisioned"),
    FAILED("Failed"),
    BOOKING_EXPIRED("BookingExpired"),
    CAPACITY_REVOKED("CapacityRevoked");

    private final String kueueName;

    ProvisioningCondition(String kueueName) {
      this.kueueName = kueueName;
    }

    @Override
    public String kueueName() {
      return kueueName;
    }
  }
}
