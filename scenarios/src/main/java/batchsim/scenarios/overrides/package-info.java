/**
 * Variants of a scenario, built on the located YAML tree before binding so that every later problem
 * still points at a file, line and column (or at the {@code --set} argument that wrote the value):
 * {@link batchsim.scenarios.overrides.Composer} merges {@code include:}d files
 * ({@link batchsim.scenarios.overrides.DeepMerge}) and applies {@code --set path=value}
 * ({@link batchsim.scenarios.overrides.SetPath}, {@code TreeEditor}); {@link batchsim.scenarios.overrides.Matrix}
 * reads {@code matrix:} and {@code replicas:} into combinations of such assignments.
 */
package batchsim.scenarios.overrides;
