package batchsim.core.model;

/**
 * Where a workload of an imported cluster stood when the run starts (its Kueue Workload's status): holding
 * quota, or pending after an eviction with Kueue's requeue state.
 */
public sealed interface LiveState permits Reservation, Eviction {}
