package batchsim.scenarios.yaml;

import java.util.Comparator;

/**
 * A position in a source file; {@code line} and {@code column} count from 1. Line 0 marks text that is
 * not in a file, such as a command-line {@code --set} value; {@code file} then names it.
 */
public record Location(String file, int line, int column) implements Comparable<Location> {
  private static final Comparator<Location> ORDER =
      Comparator.comparing(Location::file).thenComparingInt(Location::line).thenComparingInt(Location::column);

  @Override
  public int compareTo(Location o) {
    return ORDER.compare(this, o);
  }

  /** Text given outside any file, e.g. {@code --set a.b=1}; shown as the label alone. */
  public static Location argument(String label) {
    return new Location(label, 0, 0);
  }

  /** {@code file:line:column}, the form editors and IDEs turn into links; just the label for an argument. */
  @Override
  public String toString() {
    return line == 0 ? file : file + ":" + line + ":" + column;
  }
}
