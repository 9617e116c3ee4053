package batchsim.scenarios.expect;

import batchsim.scenarios.yaml.Location;

/**
 * The verdict on one expectation.
 *
 * @param name the expectation as written (or, for a baseline, what it compares)
 * @param detail the measured value and, for a failure, the expected one and by how much it was missed
 * @param at where the expectation is written
 */
public record Outcome(String name, Status status, String detail, Location at) {
  /** PASS and FAIL, or SKIP when the run stopped before the expectation could be evaluated. */
  public enum Status { PASS, FAIL, SKIP }

  public boolean failed() {
    return status == Status.FAIL;
  }

  /** {@code PASS name: detail}, one line. */
  public String line() {
    return status + " " + name + ": " + detail;
  }
}
