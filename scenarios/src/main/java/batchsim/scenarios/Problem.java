package batchsim.scenarios;

import batchsim.scenarios.yaml.Location;

/**
 * One thing wrong with a scenario: where (file position and field path) and what.
 *
 * @param location file, line and column of the offending text
 * @param path field path such as {@code clusterQueues[0].resourceGroups[0].flavors[1].name}; "" when the
 *     problem concerns the document as a whole
 * @param message what is wrong, naming the value and the constraint
 */
public record Problem(Location location, String path, String message) {
  /** {@code file:line:col: path: message}, one line. */
  @Override
  public String toString() {
    return location + ": " + (path.isEmpty() ? "" : path + ": ") + message;
  }
}
