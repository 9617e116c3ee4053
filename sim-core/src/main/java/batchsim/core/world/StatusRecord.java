package batchsim.core.world;

import java.util.Map;

/**
 * One object's observable state when it changed, shaped as its API shapes it (plain maps, lists, strings and
 * numbers, ready to be written as JSON): for Kueue, a Workload, ClusterQueue, LocalQueue or Cohort.
 *
 * @param timeMs virtual time of the change
 * @param namespace null for cluster-scoped kinds
 * @param spec the part of the object's spec that changes in a run (Workload: {@code active}), or null
 */
public record StatusRecord(long timeMs, String kind, String namespace, String name, Map<String, Object> spec,
    Map<String, Object> status) {}
