package batchsim.core.metrics;

/**
 * One change of a workload's Kueue condition, as `kubectl describe workload` would show it: when, which
 * condition, its new status, Kueue's reason and message (e.g. QuotaReserved False WaitingForQuota
 * "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor h100,
 * 8 more needed").
 */
public record Decision(long timeMs, String condition, boolean status, String reason, String message) {}
