/**
 * Scenario files: YAML in, a validated {@link batchsim.core.model.SimulationSpec} out.
 *
 * <p>The pipeline is {@code YamlTreeReader} (text → located node tree) → {@code ScenarioBinder} (tree →
 * {@code Spec} records, shape and value checks) → {@code ScenarioValidator} (names and references across
 * the file) → {@code ModelBuilder} (→ SimulationSpec). Every stage collects problems instead of throwing
 * on the first, so the user sees all of them at once; {@link batchsim.scenarios.ScenarioLoader} is the
 * entry point and throws one {@link batchsim.scenarios.ScenarioException} holding them all.
 */
package batchsim.scenarios;
