package batchsim.scenarios.conformance.kueue;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One runnable case: a base case from the file, or one of its variants with the change merged in.
 *
 * @param id the case id, {@code S03} for a base case and {@code S03/v1} for its first variant
 * @param name the Kueue test name (or test function names when a case stands for whole functions)
 * @param kind schedule_cycle, flavor_assignment, iterator_order, requeue_table, preemption_targets, ...
 * @param spec the case document with fixtures expanded and the variant's change applied
 * @param expect the expectation (a variant's keys replace the base's, key by key)
 */
public record ConformanceCase(String id, String name, String kind, JsonNode spec, JsonNode expect) {}
