package batchsim.scenarios;

import batchsim.core.model.SimulationSpec;

/**
 * A scenario file that loaded cleanly.
 *
 * @param file the file as the user named it (also the prefix of problem locations)
 * @param sha256 lowercase hex SHA-256 of the file's bytes, to tie results to their exact input
 * @param spec the validated model, ready for {@code new Simulation(spec)}
 */
public record LoadedScenario(String file, String sha256, SimulationSpec spec) {
  /** The same scenario with another root seed (the CLI's {@code --seed}). */
  public LoadedScenario withSeed(long seed) {
    SimulationSpec s = spec;
    return new LoadedScenario(file, sha256, new SimulationSpec(s.name(), seed, s.horizonMs(), s.resources(),
        s.nodePools(), s.flavors(), s.cohorts(), s.clusterQueues(), s.localQueues(), s.priorityClasses(), s.kueue(),
        s.podScheduling(), s.workloadSources(), s.sampleIntervalMs()));
  }
}
