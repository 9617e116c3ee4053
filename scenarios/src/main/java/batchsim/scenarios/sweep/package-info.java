/**
 * Sweeps: every matrix combination × replica bound up front ({@link batchsim.scenarios.sweep.SweepPlan}),
 * run on a fixed thread pool with results collected in cell order ({@link batchsim.scenarios.sweep.SweepRunner}),
 * and aggregated to mean and 95% confidence interval per configuration
 * ({@link batchsim.scenarios.sweep.SweepReport}).
 */
package batchsim.scenarios.sweep;
