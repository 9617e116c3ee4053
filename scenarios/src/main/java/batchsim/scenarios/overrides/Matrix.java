package batchsim.scenarios.overrides;

import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario's {@code matrix:} and {@code replicas:}. Each matrix entry is a dimension, in one of two forms:
 * <pre>
 * matrix:
 *   kueue.fairSharing.enable: [false, true]      # a path and its values; levels are named by the values
 *   gpu:                                          # a name and labelled levels, each a set of path: value
 *     "48": {nodePools.gpu.count: 6, clusterQueues.team-a.quota.a100.nvidia.com/gpu: 24}
 *     "96": {nodePools.gpu.count: 12, clusterQueues.team-a.quota.a100.nvidia.com/gpu: 48}
 *   exclude:                                      # combinations to skip: every given dimension matches
 *     - {gpu: "96", kueue.fairSharing.enable: true}
 * replicas: 3                                     # each combination with seeds seed .. seed+2
 * </pre>
 * Combinations are the cartesian product in the order the dimensions are written, the first varying
 * slowest; a combination is named {@code dim=level,dim=level}.
 */
public record Matrix(List<Dimension> dimensions, List<Map<String, String>> excludes, int replicas) {
  public static final String KEY = "matrix";
  public static final String REPLICAS = "replicas";
  private static final String EXCLUDE = "exclude";
  private static final int MAX_REPLICAS = 10_000;
  private static final int MAX_COMBINATIONS = 100_000;

  /** One matrix entry: its name and its levels in written order. */
  public record Dimension(String name, List<Level> levels) {}

  /** One value of a dimension: its label and what it sets. */
  public record Level(String label, List<Assignment> assignments) {}

  /** One cell of the product before replicas: a level per dimension, and their overrides in dimension order. */
  public record Combination(String name, Map<String, String> levels, List<Assignment> assignments) {
    public Combination {
      levels = Collections.unmodifiableMap(new LinkedHashMap<>(levels)); // keeps dimension order
      assignments = List.copyOf(assignments);
    }
  }

  public Matrix {
    dimensions = List.copyOf(dimensions);
    excludes = List.copyOf(excludes);
  }

  /** Reads the matrix and replicas from a document root; problems are reported, bad parts left out. */
  public static Matrix parse(Node root, IssueSink sink) {
    if (!(root instanceof MapNode m)) {
      return new Matrix(List.of(), List.of(), 1);
    }
    int replicas = replicas(m.get(REPLICAS), sink);
    Node matrix = m.get(KEY);
    if (matrix == null || matrix.isNull()) {
      return new Matrix(List.of(), List.of(), replicas);
    }
    if (!(matrix instanceof MapNode mm)) {
      sink.report(matrix.location(), matrix.path(), "expected a map of dimensions, got " + matrix.describe());
      return new Matrix(List.of(), List.of(), replicas);
    }
    List<Dimension> dims = new ArrayList<>();
    mm.entries().forEach((k, e) -> {
      if (!k.equals(EXCLUDE)) {
        Dimension d = dimension(e.key(), e.value(), sink);
        if (d != null) {
          dims.add(d);
        }
      }
    });
    List<Map<String, String>> excludes = excludes(mm.get(EXCLUDE), dims, sink);
    Matrix out = new Matrix(dims, excludes, replicas);
    long product = 1;
    for (Dimension d : dims) {
      product *= d.levels().size();
      if (product > MAX_COMBINATIONS) {
        sink.report(matrix.location(), matrix.path(), "the matrix has more than " + MAX_COMBINATIONS
            + " combinations");
        return new Matrix(List.of(), List.of(), replicas);
      }
    }
    return out;
  }

  private static int replicas(Node n, IssueSink sink) {
    if (n == null || n.isNull()) {
      return 1;
    }
    if (n instanceof ScalarNode s && s.text().matches("\\d{1,9}")) {
      int v = Integer.parseInt(s.text());
      if (v >= 1 && v <= MAX_REPLICAS) {
        return v;
      }
    }
    sink.report(n.location(), n.path(), "expected a whole number from 1 to " + MAX_REPLICAS + ", got " + n.describe());
    return 1;
  }

  private static Dimension dimension(ScalarNode key, Node value, IssueSink sink) {
    String name = key.text();
    if (!validLabel(name, key, sink)) {
      return null;
    }
    List<Level> levels = new ArrayList<>();
    if (value instanceof ListNode l) {
      SetPath path = path(name, key, sink);
      if (path == null) {
        return null;
      }
      for (Node item : l.items()) {
        if (!(item instanceof ScalarNode s)) {
          sink.report(item.location(), item.path(), "a value of '" + name + ": [...]' must be a scalar; for maps "
              + "and lists name the levels instead (" + name + ": {label: {path: value}})");
          continue;
        }
        String label = s.isNull() ? "null" : s.text();
        if (validLabel(label, s, sink) && unique(levels, label, s, sink)) {
          levels.add(new Level(label, List.of(new Assignment(path, s, key.location(), key.path()))));
        }
      }
    } else if (value instanceof MapNode named) {
      named.entries().forEach((label, e) -> {
        if (!validLabel(label, e.key(), sink) || !unique(levels, label, e.key(), sink)) {
          return;
        }
        if (e.value().isNull()) {
          levels.add(new Level(label, List.of()));
          return;
        }
        if (!(e.value() instanceof MapNode sets)) {
          sink.report(e.value().location(), e.value().path(), "expected a map of path: value for level '" + label
              + "', got " + e.value().describe());
          return;
        }
        List<Assignment> overrides = new ArrayList<>();
        sets.entries().forEach((p, s) -> {
          SetPath path = path(p, s.key(), sink);
          if (path != null) {
            overrides.add(new Assignment(path, s.value(), s.key().location(), s.key().path()));
          }
        });
        levels.add(new Level(label, overrides));
      });
    } else {
      sink.report(value.location(), value.path(), "expected a list of values (path: [a, b]) or labelled levels "
          + "(name: {label: {path: value}}), got " + value.describe());
      return null;
    }
    if (levels.isEmpty()) {
      boolean written = value instanceof ListNode l ? !l.items().isEmpty() : !((MapNode) value).entries().isEmpty();
      if (!written) { // otherwise each bad level was reported already
        sink.report(value.location(), value.path(), "a matrix dimension needs at least one value");
      }
      return null;
    }
    return new Dimension(name, levels);
  }

  private static SetPath path(String text, ScalarNode at, IssueSink sink) {
    try {
      return SetPath.parse(text);
    } catch (IllegalArgumentException e) {
      sink.report(at.location(), at.path(), "bad path '" + text + "': " + e.getMessage());
      return null;
    }
  }

  /** Names and labels end up in cell names such as {@code gpu=48,seed=3}, so they avoid ',' and '='. */
  private static boolean validLabel(String label, Node at, IssueSink sink) {
    if (label.isEmpty() || label.contains(",") || label.contains("=")) {
      sink.report(at.location(), at.path(), "'" + label + "' cannot name a matrix dimension or level: it must be "
          + "non-empty and without ',' or '='");
      return false;
    }
    return true;
  }

  private static boolean unique(List<Level> levels, String label, Node at, IssueSink sink) {
    if (levels.stream().anyMatch(l -> l.label().equals(label))) {
      sink.report(at.location(), at.path(), "level '" + label + "' is listed twice");
      return false;
    }
    return true;
  }

  private static List<Map<String, String>> excludes(Node n, List<Dimension> dims, IssueSink sink) {
    List<Map<String, String>> out = new ArrayList<>();
    if (n == null || n.isNull()) {
      return out;
    }
    if (!(n instanceof ListNode l)) {
      sink.report(n.location(), n.path(), "expected a list of {dimension: level} maps, got " + n.describe());
      return out;
    }
    for (Node item : l.items()) {
      if (!(item instanceof MapNode m) || m.entries().isEmpty()) {
        sink.report(item.location(), item.path(), "expected a map of dimension: level, got " + item.describe());
        continue;
      }
      Map<String, String> rule = new LinkedHashMap<>();
      m.entries().forEach((dim, e) -> {
        Dimension d = dims.stream().filter(x -> x.name().equals(dim)).findFirst().orElse(null);
        List<String> names = dims.stream().map(Dimension::name).toList();
        if (d == null) {
          sink.report(e.key().location(), e.key().path(), "unknown matrix dimension '" + dim + "' (known: "
              + String.join(", ", names) + ")");
          return;
        }
        String label = e.value() instanceof ScalarNode s ? (s.isNull() ? "null" : s.text()) : null;
        List<String> labels = d.levels().stream().map(Level::label).toList();
        if (label == null || !labels.contains(label)) {
          sink.report(e.value().location(), e.value().path(), "'" + dim + "' has no level " + e.value().describe()
              + " (levels: " + String.join(", ", labels) + ")");
          return;
        }
        rule.put(dim, label);
      });
      if (rule.size() == m.entries().size()) {
        out.add(rule);
      }
    }
    return out;
  }

  /** Every combination not excluded, in order; a matrix without dimensions has one, named "". */
  public List<Combination> combinations() {
    List<Combination> out = new ArrayList<>();
    int[] idx = new int[dimensions.size()];
    while (true) {
      Map<String, String> levels = new LinkedHashMap<>();
      List<Assignment> overrides = new ArrayList<>();
      StringBuilder name = new StringBuilder();
      for (int d = 0; d < idx.length; d++) {
        Level level = dimensions.get(d).levels().get(idx[d]);
        levels.put(dimensions.get(d).name(), level.label());
        overrides.addAll(level.assignments());
        name.append(d == 0 ? "" : ",").append(dimensions.get(d).name()).append('=').append(level.label());
      }
      if (excludes.stream().noneMatch(rule -> levels.entrySet().containsAll(rule.entrySet()))) {
        out.add(new Combination(name.toString(), levels, List.copyOf(overrides)));
      }
      int d = idx.length - 1;
      while (d >= 0 && ++idx[d] == dimensions.get(d).levels().size()) {
        idx[d--] = 0;
      }
      if (d < 0) {
        return out;
      }
    }
  }

  /** Every level's overrides, each once (to check that they apply without running the product). */
  public List<List<Assignment>> levelAssignments() {
    List<List<Assignment>> out = new ArrayList<>();
    dimensions.forEach(d -> d.levels().forEach(l -> out.add(l.assignments())));
    return out;
  }
}
