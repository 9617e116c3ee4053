/**
 * The Kueue conformance runner: replays Kueue's own unit-test expectations, written as neutral YAML cases
 * ({@code kueue-cases.yaml}), through batchsim's Kueue engine and reports one line per case.
 *
 * <p>{@link batchsim.scenarios.conformance.kueue.CaseFile} reads a case file (fixtures, variants and their
 * merge rules) into {@link batchsim.scenarios.conformance.kueue.ConformanceCase}s; {@link
 * batchsim.scenarios.conformance.kueue.ConformanceRunner} sets up the engine state each case describes
 * (through {@code CaseSetup}: {@code CaseConfig}, {@code ClusterObjects}, {@code QuotaTree},
 * {@code CaseWorkloads}), runs the kind of check the case asks for ({@code ScheduleCycleCase},
 * {@code FlavorAssignmentCase}, ...) and compares with the expectation.
 */
package batchsim.scenarios.conformance.kueue;
