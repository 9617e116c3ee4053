package batchsim.scenarios.expect;

import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.yaml.Location;

/** One assertion about a run. */
interface Expectation {
  String name();

  Location at();

  /** The verdict on {@code result}; {@code checked} says whether the invariant checker ran clean. */
  Outcome evaluate(ResultView result, boolean checked);
}
