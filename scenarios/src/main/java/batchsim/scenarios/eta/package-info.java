/**
 * {@code batchsim eta}: when would a job (or a pending Workload) of a live cluster's snapshot get quota, be
 * admitted and start, and why not sooner. {@link batchsim.scenarios.eta.EtaSnapshot} builds the scenario
 * (snapshot + asked jobs at t = 0, arrivals dropped), {@link batchsim.scenarios.eta.Eta} plays it R times,
 * each replica stopped once the asked workloads started, and {@link batchsim.scenarios.eta.EtaReport} prints
 * the answer as text or JSON.
 */
package batchsim.scenarios.eta;
