package batchsim.core.model;

import java.util.List;

/**
 * One submitted workload (a Job, JobSet, ...). {@code id} is unique in the run ("namespace/name" or a
 * generated name); {@code localQueue} names the LocalQueue it is submitted to; {@code createdMs} is the
 * virtual submission time; {@code runtimeMs} is how long it runs once all its pods are up;
 * {@code workloadClass} groups workloads for reports (may be null).
 */
public record WorkloadSpec(
    String id,
    String workloadClass,
    String localQueue,
    long createdMs,
    int priority,
    String priorityClass,
    List<PodSetSpec> podSets,
    long runtimeMs) {}
