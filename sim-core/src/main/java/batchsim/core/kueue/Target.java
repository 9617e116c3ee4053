package batchsim.core.kueue;

/** A preemption victim and Kueue's Preempted reason (InClusterQueue, InCohortReclamation, ...). */
record Target(Workload workload, String reason) {}
