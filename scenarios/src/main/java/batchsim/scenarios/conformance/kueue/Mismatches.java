package batchsim.scenarios.conformance.kueue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/** The differences found between a case's expectation and what the engine did, in check order. */
final class Mismatches {
  private final List<String> found = new ArrayList<>();
  private final List<String> caveats = new ArrayList<>();

  void add(String what, Object expected, Object got) {
    found.add(what + ": expected " + expected + " got " + got);
  }

  void check(String what, Object expected, Object got) {
    if (!Objects.equals(expected, got)) {
      add(what, expected, got);
    }
  }

  /** Compares two collections as sets, printing them sorted. */
  void checkSet(String what, Collection<String> expected, Collection<String> got) {
    TreeSet<String> e = new TreeSet<>(expected);
    TreeSet<String> g = new TreeSet<>(got);
    if (!e.equals(g)) {
      add(what, e, g);
    }
  }

  void note(String message) {
    found.add(message);
  }

  /** Something the runner could not check; the case still passes. */
  void caveat(String message) {
    caveats.add(message);
  }

  boolean isEmpty() {
    return found.isEmpty();
  }

  List<String> all() {
    return found;
  }

  List<String> caveats() {
    return caveats;
  }

  /** The first difference, with a count of the others. */
  String summary() {
    if (found.isEmpty()) {
      return "";
    }
    return found.get(0) + (found.size() > 1 ? " (+" + (found.size() - 1) + " more)" : "");
  }
}
