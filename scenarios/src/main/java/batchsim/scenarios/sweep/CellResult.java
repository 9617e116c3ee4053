package batchsim.scenarios.sweep;

import batchsim.scenarios.expect.Outcome;
import java.util.List;

/**
 * What a sweep keeps of one run (the full result is written to the cell's directory and dropped).
 *
 * @param values one per sweep metric, in metric order; NaN when the run has no value for it
 * @param wallNanos the wall time of the cell's run (0 when kept from an interrupted sweep), for JUnit XML only
 */
public record CellResult(Cell cell, double[] values, List<Outcome> outcomes, long wallNanos) {
  public long failed() {
    return outcomes.stream().filter(Outcome::failed).count();
  }
}
