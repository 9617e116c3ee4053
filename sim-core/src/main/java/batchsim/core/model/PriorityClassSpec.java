package batchsim.core.model;

/** A (Workload)PriorityClass: name and value; higher value means more important. */
public record PriorityClassSpec(String name, int value) {}
