/**
 * {@code batchsim conformance FILE...} ({@link batchsim.scenarios.conformance.ConformanceCommand}): replays
 * conformance case files through the engines, each file by the runner of its format — {@code kueue} for
 * Kueue's unit-test expectations, {@code volcano} for Volcano's.
 */
package batchsim.scenarios.conformance;
