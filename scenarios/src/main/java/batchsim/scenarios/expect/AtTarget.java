package batchsim.scenarios.expect;

/**
 * What {@code at(TIME, TARGET)} reads: today a recorded object's status field ({@link StatusPath}). The
 * extension point for Kueue's metrics model: a {@code metric{labels}} target (e.g.
 * {@code kueue_pending_workloads{cluster_queue="cq-a",status="inadmissible"}}) becomes a second implementation,
 * parsed where {@link StatusExpressionParser#target} refuses it today, validated against the model's names and
 * labels, and fed by the samples the run records.
 */
sealed interface AtTarget permits StatusPath {}
