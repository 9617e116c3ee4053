package batchsim.core.sim;

import batchsim.core.metrics.RunResult;
import batchsim.core.model.SimulationSpec;

/** One deterministic run of a scenario. (Engine under construction.) */
public final class Simulation {
  private final SimulationSpec spec;

  public Simulation(SimulationSpec spec) {
    this.spec = spec;
  }

  /** Runs to the horizon or until no events remain; single-threaded and deterministic. */
  public RunResult run() {
    throw new UnsupportedOperationException("engine not built yet: " + spec.name());
  }
}
