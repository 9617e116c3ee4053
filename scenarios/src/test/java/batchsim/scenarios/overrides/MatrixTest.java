package batchsim.scenarios.overrides;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MatrixTest {
  private final List<String> problems = new ArrayList<>();

  private Matrix parse(String yaml) {
    Node root = YamlTreeReader.read("m.yaml", yaml, (at, path, msg) -> problems.add(at + ": " + path + ": " + msg));
    return Matrix.parse(root, (at, path, msg) -> problems.add(at + ": " + (path.isEmpty() ? "" : path + ": ") + msg));
  }

  @Test
  void product_inWrittenOrder_firstDimensionSlowest_withExcludes() {
    Matrix m = parse("""
        matrix:
          nodePools.gpu.count: [6, 8]
          fairSharing:
            "off": {kueue.fairSharing: null}
            "on": {kueue.fairSharing: {}}
          exclude:
            - {nodePools.gpu.count: 8, fairSharing: "on"}
        replicas: 3
        """);
    assertEquals(List.of(), problems);
    assertEquals(3, m.replicas());
    assertEquals(List.of("nodePools.gpu.count=6,fairSharing=off", "nodePools.gpu.count=6,fairSharing=on",
        "nodePools.gpu.count=8,fairSharing=off"), m.combinations().stream().map(Matrix.Combination::name).toList());
    Matrix.Combination c = m.combinations().get(1);
    assertEquals(List.of("nodePools.gpu.count", "kueue.fairSharing"),
        c.assignments().stream().map(a -> a.path().text()).toList());
    assertEquals("6", c.levels().get("nodePools.gpu.count"));
  }

  @Test
  void noMatrix_isOneUnnamedCombination() {
    Matrix m = parse("name: x\n");
    assertEquals(1, m.replicas());
    assertEquals(List.of(""), m.combinations().stream().map(Matrix.Combination::name).toList());
  }

  @Test
  void problems_areLocated() {
    parse("""
        matrix:
          a: 3
          b: []
          c: [1, 1]
          "d,e": [1]
          f: [{x: 1}]
          g: {lo: 5}
          h: [1]
          exclude:
            - {z: 1}
            - {h: 2}
        replicas: 0
        """);
    assertEquals(List.of(
        "m.yaml:2:6: matrix.a: expected a list of values (path: [a, b]) or labelled levels (name: {label: {path: "
            + "value}}), got '3'",
        "m.yaml:3:6: matrix.b: a matrix dimension needs at least one value",
        "m.yaml:4:10: matrix.c[1]: level '1' is listed twice",
        "m.yaml:5:3: matrix[d,e]: 'd,e' cannot name a matrix dimension or level: it must be non-empty and without "
            + "',' or '='",
        "m.yaml:6:7: matrix.f[0]: a value of 'f: [...]' must be a scalar; for maps and lists name the levels instead "
            + "(f: {label: {path: value}})",
        "m.yaml:7:11: matrix.g.lo: expected a map of path: value for level 'lo', got '5'",
        "m.yaml:10:8: matrix.exclude[0].z: unknown matrix dimension 'z' (known: c, h)",
        "m.yaml:11:11: matrix.exclude[1].h: 'h' has no level '2' (levels: 1)",
        "m.yaml:12:11: replicas: expected a whole number from 1 to 10000, got '0'").stream().sorted().toList(),
        problems.stream().sorted().toList());
  }
}
