package batchsim.core.kueue;

/** A workload condition as Kueue writes it; {@code timeMs} is the last transition in virtual time. */
public record Condition(ConditionType type, boolean status, String reason, String message, long timeMs) {}
