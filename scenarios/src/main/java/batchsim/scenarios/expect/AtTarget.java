package batchsim.scenarios.expect;

/**
 * What {@code at(TIME, TARGET)} reads: a recorded object's status field ({@link StatusPath}) or one of Kueue's
 * metrics as the run's metric model sampled it ({@link MetricSelector}).
 */
sealed interface AtTarget permits StatusPath, MetricSelector {}
