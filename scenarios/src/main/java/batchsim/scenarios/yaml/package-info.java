/**
 * A minimal YAML document tree whose every node knows where it came from (file, line, column) and
 * where it sits in the document (a field path such as {@code clusterQueues[0].resourceGroups[1]}).
 *
 * <p>The tree is built from Jackson's streaming {@code YAMLParser}, so no reflection-based binding is
 * involved: callers walk the tree by hand and can report every problem with its exact location. Maps
 * keep insertion order; duplicate keys are reported, not silently overwritten. Nothing here is null
 * unless documented.
 */
package batchsim.scenarios.yaml;
