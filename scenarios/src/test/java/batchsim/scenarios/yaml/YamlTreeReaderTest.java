package batchsim.scenarios.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class YamlTreeReaderTest {
  private final List<String> issues = new ArrayList<>();

  private Node read(String yaml) {
    return YamlTreeReader.read("f.yaml", yaml, (at, path, msg) -> issues.add(at + " " + path + " " + msg));
  }

  @Test
  void read_nodesCarryLocationAndPath() {
    MapNode root = (MapNode) read("""
        a:
          b: [x, {c: 500m}]
        "nvidia.com/gpu": 8
        """);
    ListNode b = (ListNode) ((MapNode) root.get("a")).get("b");
    assertEquals(new Location("f.yaml", 2, 6), b.location());
    assertEquals("a.b", b.path());
    ScalarNode c = (ScalarNode) ((MapNode) b.items().get(1)).get("c");
    assertEquals("a.b[1].c", c.path());
    assertEquals(new Location("f.yaml", 2, 14), c.location());
    assertEquals(ScalarNode.Type.STRING, c.type());
    ScalarNode gpu = (ScalarNode) root.get("nvidia.com/gpu");
    assertEquals("[nvidia.com/gpu]", gpu.path());
    assertEquals(ScalarNode.Type.INT, gpu.type());
    assertEquals(new Location("f.yaml", 3, 1), root.entries().get("nvidia.com/gpu").key().location());
    assertEquals(List.of(), issues);
  }

  @Test
  void read_mapsKeepInsertionOrder() {
    MapNode root = (MapNode) read("z: 1\na: 2\nm: 3\n");
    assertEquals(List.of("z", "a", "m"), List.copyOf(root.entries().keySet()));
  }

  @Test
  void read_scalarTypes_followYamlButKeepText() {
    MapNode root = (MapNode) read("i: 010\nf: 1.5\nb: yes\nq: \"true\"\nn:\nnull2: null\n");
    assertEquals("010", ((ScalarNode) root.get("i")).text());
    assertEquals(ScalarNode.Type.FLOAT, ((ScalarNode) root.get("f")).type());
    assertEquals(ScalarNode.Type.BOOL, ((ScalarNode) root.get("b")).type());
    assertEquals(ScalarNode.Type.STRING, ((ScalarNode) root.get("q")).type());
    assertEquals(true, root.get("n").isNull());
    assertEquals(true, root.get("null2").isNull());
  }

  @Test
  void read_duplicateKey_keepsFirstAndReports() {
    MapNode root = (MapNode) read("a: 1\nb: 2\na: 3\n");
    assertEquals("1", ((ScalarNode) root.get("a")).text());
    assertEquals(List.of("f.yaml:3:1 a duplicate key 'a' (first at line 1, column 1)"), issues);
  }

  @Test
  void read_aliasAndMerge_copyWithPathsOfTheUse() {
    MapNode root = (MapNode) read("""
        base: &b {x: 1, y: 2}
        use:
          <<: *b
          y: 3
        again: *b
        """);
    MapNode use = (MapNode) root.get("use");
    assertEquals(List.of("y", "x"), List.copyOf(use.entries().keySet()), "explicit keys first, then merged");
    assertEquals("3", ((ScalarNode) use.get("y")).text());
    ScalarNode x = (ScalarNode) use.get("x");
    assertEquals("use.x", x.path());
    assertEquals(new Location("f.yaml", 1, 14), x.location(), "where the text is");
    assertEquals("again.y", ((MapNode) root.get("again")).get("y").path());
    assertEquals(List.of(), issues);
  }

  @Test
  void read_syntaxError_reportsOneLineAtProblemMark() {
    assertNull(read("a: [1, 2\nb: 3\n"));
    assertEquals(1, issues.size());
    assertEquals("f.yaml:2:2  YAML syntax error: expected ',' or ']', but got : "
        + "(while parsing a flow sequence at line 1, column 4)", issues.get(0));
  }

  @Test
  void read_secondDocument_isReported() {
    assertInstanceOf(MapNode.class, read("a: 1\n---\nb: 2\n"));
    assertEquals(List.of("f.yaml:3:1  a second YAML document starts here; a scenario file holds one"), issues);
  }

  @Test
  void readAll_everyDocumentWithItsLocations_anchorsStayInTheirDocument() {
    List<Node> docs = YamlTreeReader.readAll("f.yaml", "a: &x {k: 1}\nb: *x\n---\n---\nc: *x\n",
        (at, path, msg) -> issues.add(at + " " + path + " " + msg));
    assertEquals(2, docs.size());
    assertEquals("b.k", ((MapNode) ((MapNode) docs.get(0)).get("b")).get("k").path());
    assertEquals(new Location("f.yaml", 5, 1), ((MapNode) docs.get(1)).entries().get("c").key().location());
    assertEquals(List.of("f.yaml:5:4 c unknown alias '*x' (anchors must be defined before use)"), issues);
  }

  @Test
  void read_aliasBomb_isStopped() {
    StringBuilder sb = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 9; i++) {
      sb.append("a").append(i).append(": &a").append(i).append(" [");
      for (int j = 0; j < 10; j++) {
        sb.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      sb.append("]\n");
    }
    assertNull(read(sb.toString()));
    assertEquals(1, issues.size(), issues.toString());
  }

  @Test
  void read_aliasBomb_isReportedAtTheAliasThatSpendsTheBudget() {
    read("a: &a [x, x, x]\nb: [*a, *a, *a, *a]\n", 10);
    assertEquals(List.of("f.yaml:2:13 b[2] aliases expand to more than 10 nodes (the alias '*a' copies 4);"
        + " write the repeated parts out, or anchor smaller blocks"), issues);
  }

  @Test
  void read_plainNodes_doNotCountAsAliasExpansions() {
    assertInstanceOf(MapNode.class, read("a: &a [x]\nb: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\nc: *a\n", 10));
    assertEquals(List.of(), issues);
  }

  @Test
  void read_unknownTag_isRefusedWithLocation() {
    read("a: !secret value\nb: !!str 12\nc: !!int 3\nd: !<tag:example.com,2000:x> [1]\n");
    assertEquals(List.of(
        "f.yaml:1:4 a unknown YAML tag '!secret'; batchsim reads plain YAML: remove the tag (quote the value if"
            + " it should be a string)",
        "f.yaml:4:4 d unknown YAML tag '!tag:example.com,2000:x'; batchsim reads plain YAML: remove the tag"
            + " (quote the value if it should be a string)"), issues);
  }

  @Test
  void read_coreTags_keepTheirMeaning() {
    MapNode root = (MapNode) read("b: !!str 12\nc: !!int 3\n");
    assertEquals(ScalarNode.Type.STRING, ((ScalarNode) root.get("b")).type());
    assertEquals(List.of(), issues);
  }

  @Test
  void read_deepNesting_isRefusedWithLocationBeforeJacksonsLimit() {
    assertNull(read("a: " + "[".repeat(2000) + "]".repeat(2000) + "\n"));
    assertEquals(1, issues.size(), issues.toString());
    assertTrue(issues.get(0).startsWith("f.yaml:1:103 a[0][0]"), issues.get(0));
    assertTrue(issues.get(0).endsWith("characters) maps and lists nest deeper than 100 levels here; a scenario"
        + " needs far fewer"), issues.get(0));
  }

  @Test
  void read_nestingAtTheLimit_isRead() {
    assertInstanceOf(MapNode.class, read("a: " + "[".repeat(99) + "]".repeat(99) + "\n"));
    assertEquals(List.of(), issues);
  }

  @Test
  void describe_quotesAShortExcerptOnOneLine() {
    assertEquals("'a\\nb'", new ScalarNode(new Location("f", 1, 1), "", "a\nb", ScalarNode.Type.STRING).describe());
    String huge = "x".repeat(100_000);
    assertEquals("'" + "x".repeat(60) + "… (100000 characters)'",
        new ScalarNode(new Location("f", 1, 1), "", huge, ScalarNode.Type.STRING).describe());
  }

  private Node read(String yaml, long maxAliasNodes) {
    return YamlTreeReader.read("f.yaml", yaml, (at, path, msg) -> issues.add(at + " " + path + " " + msg),
        maxAliasNodes);
  }
}
