/**
 * Real inputs: the Kueue objects, nodes and jobs of a real cluster, and Kueue's performance-test generator
 * files, translated into the scenario format.
 *
 * <p>Every reader here translates Kubernetes objects into scenario-shaped {@link batchsim.scenarios.yaml.Node}
 * trees whose scalars keep their manifest locations: the scenario binder binds them like text written in a
 * scenario (so a bad quantity in a Job is reported at its line in the Job's file), and {@link ScenarioWriter}
 * prints them for {@code batchsim import}. Fields batchsim does not model are collected as {@link Warnings},
 * each kind of field once, never silently dropped.
 */
package batchsim.scenarios.imports;
