/**
 * A run's numbers behind one interface, {@link batchsim.scenarios.compare.ResultView}, whether the run is in
 * memory or stored as summary.json, and {@code compare}: the metric-by-metric diff of stored results.
 */
package batchsim.scenarios.compare;
