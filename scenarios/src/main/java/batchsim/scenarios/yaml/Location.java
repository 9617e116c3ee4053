package batchsim.scenarios.yaml;

import java.util.Comparator;

/** A position in a source file; {@code line} and {@code column} count from 1. */
public record Location(String file, int line, int column) implements Comparable<Location> {
  private static final Comparator<Location> ORDER =
      Comparator.comparing(Location::file).thenComparingInt(Location::line).thenComparingInt(Location::column);

  @Override
  public int compareTo(Location o) {
    return ORDER.compare(this, o);
  }

  /** {@code file:line:column}, the form editors and IDEs turn into links. */
  @Override
  public String toString() {
    return file + ":" + line + ":" + column;
  }
}
