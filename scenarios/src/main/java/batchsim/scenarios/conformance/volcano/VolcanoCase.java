package batchsim.scenarios.conformance.volcano;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One runnable Volcano case: a case of the file, or one of its variants merged over it.
 *
 * @param id {@code case-id}, or {@code case-id/variant-id}
 * @param spec the merged case document; {@code invalid} holds a message when the case could not be expanded
 */
public record VolcanoCase(String id, ObjectNode spec) {}
