package batchsim.core.model;

/** A Kueue AdmissionCheck; batchsim models the ProvisioningRequest controller. */
public record AdmissionCheckSpec(String name, ProvisioningSpec provisioning) {}
