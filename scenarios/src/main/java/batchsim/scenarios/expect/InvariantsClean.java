package batchsim.scenarios.expect;

import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.yaml.Location;

/**
 * {@code invariants: clean}: the run was made with the engine's invariant checker on and it found
 * nothing. Runs of a scenario that expects this are always checked; a violation stops the run instead.
 */
record InvariantsClean(Location at) implements Expectation {
  static final String NAME = "invariants: clean";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Outcome evaluate(ResultView result, boolean checked) {
    return checked ? new Outcome(NAME, Outcome.Status.PASS, "checked after every event, none violated", at)
        : new Outcome(NAME, Outcome.Status.FAIL, "the run was not made with the invariant checker (--check)", at);
  }
}
