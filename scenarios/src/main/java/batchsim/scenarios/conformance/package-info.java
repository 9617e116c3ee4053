/**
 * The conformance runner: replays Kueue's own unit-test expectations, written as neutral YAML cases
 * ({@code kueue-cases.yaml}), through batchsim's Kueue engine and reports one line per case.
 *
 * <p>{@link batchsim.scenarios.conformance.CaseFile} reads a case file (fixtures, variants and their merge
 * rules) into {@link batchsim.scenarios.conformance.ConformanceCase}s; {@link
 * batchsim.scenarios.conformance.ConformanceRunner} sets up the engine state each case describes (through
 * {@code CaseSetup}), runs the kind of check the case asks for and compares with the expectation;
 * {@link batchsim.scenarios.conformance.ConformanceCommand} is {@code batchsim conformance FILE...}.
 */
package batchsim.scenarios.conformance;
