package batchsim.scenarios.expect;

import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.yaml.Location;

/** One assertion about a run. */
interface Expectation {
  String name();

  Location at();

  /** The verdict on {@code result}; {@code checked} says whether the invariant checker ran clean. */
  Outcome evaluate(ResultView result, boolean checked);

  /** As above, with the run's status watch (null when the run made no status record). */
  default Outcome evaluate(ResultView result, boolean checked, StatusWatch watch) {
    return evaluate(result, checked);
  }
}
