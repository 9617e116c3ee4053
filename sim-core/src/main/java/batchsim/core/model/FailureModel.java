package batchsim.core.model;

/**
 * Stochastic failures of every node of a pool: each node fails after a {@code timeBetweenFailures} sample
 * (measured from the start or from its last repair) and is repaired after a {@code repairTime} sample.
 */
public record FailureModel(String pool, LongDistribution timeBetweenFailures, LongDistribution repairTime) {}
