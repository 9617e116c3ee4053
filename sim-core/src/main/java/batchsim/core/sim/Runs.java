package batchsim.core.sim;

import batchsim.core.metrics.RunResult;
import batchsim.core.model.SimulationSpec;

/** The one entry point that runs a scenario under the engine it selects (CLI, sweeps and tests call it). */
public final class Runs {
  private Runs() {}

  /**
   * Runs {@code spec} under Kueue, or under Volcano when {@code volcano} is given.
   *
   * @param checked check the engine's invariants as the run goes (slower); a violation throws
   *     {@link InvariantViolation}
   */
  public static RunResult run(SimulationSpec spec, VolcanoSetup volcano, boolean checked) {
    if (volcano == null) {
      return new Simulation(spec).checked(checked).run();
    }
    return new VolcanoSimulation(spec, volcano).checked(checked).run();
  }
}
