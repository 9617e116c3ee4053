package batchsim.scenarios;

import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.Node;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects problems across all loading stages; the loader throws once, at the end, if any were found. It also
 * notes the files the stages read (traces, node lists, manifests), for the result's provenance.
 */
final class Problems implements IssueSink {
  private final List<Problem> list = new ArrayList<>();
  private final Map<Path, Read> read = new LinkedHashMap<>();

  /** A file read: its bytes' SHA-256 and whether the scenario named it by an absolute path. */
  record Read(String sha256, boolean absolute) {}

  /** Notes that {@code file} (as resolved) was read; the first note of a file counts. */
  void read(Path file, Read what) {
    read.putIfAbsent(file.normalize(), what);
  }

  /** The files noted with {@link #read}, in the order first read. */
  Map<Path, Read> read() {
    return Collections.unmodifiableMap(read);
  }

  @Override
  public void report(Location at, String path, String message) {
    list.add(new Problem(at, path, message));
  }

  /** A problem with the value at {@code node}. */
  void at(Node node, String message) {
    report(node.location(), node.path(), message);
  }

  /** "expected an integer, got 'abc'". */
  void wrongType(Node node, String expected) {
    at(node, "expected " + expected + ", got " + node.describe());
  }

  /** How many problems so far (a reader compares before and after to know whether it found any). */
  int count() {
    return list.size();
  }

  /** The problems in file order (a stable sort, so problems at one position keep their report order). */
  List<Problem> sorted() {
    List<Problem> sorted = new ArrayList<>(list);
    sorted.sort(Comparator.comparing(Problem::location));
    return sorted;
  }

  void throwIfAny() throws ScenarioException {
    if (!list.isEmpty()) {
      throw new ScenarioException(sorted());
    }
  }
}
