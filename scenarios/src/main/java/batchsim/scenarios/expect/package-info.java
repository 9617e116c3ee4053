/**
 * Expectations: a scenario's {@code expect:} list (a small expression language over a run's metrics, in
 * simulated time) and {@code baseline:} block (no worse than a stored summary.json beyond a tolerance),
 * evaluated after a run into {@link batchsim.scenarios.expect.Outcome}s, and written as JUnit XML for CI.
 */
package batchsim.scenarios.expect;
