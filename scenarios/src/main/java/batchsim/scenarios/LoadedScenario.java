package batchsim.scenarios;

import batchsim.core.model.SimulationSpec;
import batchsim.scenarios.expect.Expectations;

/**
 * A scenario file that loaded cleanly.
 *
 * @param file the file as the user named it (also the prefix of problem locations)
 * @param sha256 lowercase hex SHA-256 of the file's bytes, to tie results to their exact input (with includes,
 *     {@code --set} or a sweep cell: of all of those inputs)
 * @param spec the validated model, ready for {@code new Simulation(spec)}
 * @param expectations the scenario's {@code expect:} and {@code baseline:} checks, evaluated after a run
 */
public record LoadedScenario(String file, String sha256, SimulationSpec spec, Expectations expectations) {
  /** A scenario without expectations. */
  public LoadedScenario(String file, String sha256, SimulationSpec spec) {
    this(file, sha256, spec, Expectations.NONE);
  }

  /** The same scenario with another root seed (the CLI's {@code --seed}, sweep replicas). */
  public LoadedScenario withSeed(long seed) {
    return new LoadedScenario(file, sha256, spec.withSeed(seed), expectations);
  }
}
