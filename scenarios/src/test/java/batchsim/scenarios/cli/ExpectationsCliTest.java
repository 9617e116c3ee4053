package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The CI gate end to end: expectations decide the exit code and land in JUnit XML. */
class ExpectationsCliTest {
  static final String GATE = "examples/ci-gate.yaml";
  static final String REGRESSED = "src/test/resources/expect/regressed.yaml";

  @TempDir
  Path tmp;

  static Document xml(Path file) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
  }

  @Test
  void unchangedConfiguration_runExits0_andEveryCasePasses() throws Exception {
    Path junit = tmp.resolve("reports/gate.xml");
    Cli.Result r = Cli.run("run", GATE, "--out", tmp.resolve("out").toString(), "--junit", junit.toString());
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("\nExpectations\n  PASS p95(wait{queue=team-a}) < 20m: measured "), r.out());
    Element suites = xml(junit).getDocumentElement();
    assertEquals("7", suites.getAttribute("tests"));
    assertEquals("0", suites.getAttribute("failures"));
    // the run's wall time, in seconds with milliseconds: the suite's, shared among its cases
    Element suite = (Element) suites.getElementsByTagName("testsuite").item(0);
    assertTrue(suite.getAttribute("time").matches("[0-9]+\\.[0-9]{3}"), suite.getAttribute("time"));
    assertTrue(Double.parseDouble(suite.getAttribute("time")) > 0, suite.getAttribute("time"));
    assertEquals(7, suites.getElementsByTagName("testcase").getLength());
    assertTrue(((Element) suites.getElementsByTagName("testcase").item(6)).getAttribute("time").matches("[0-9]+\\.[0-9]{3}"));
  }

  @Test
  void regressedConfiguration_runExits1_saysWhichAndByHowMuch_andWritesValidJUnit() throws Exception {
    Path junit = tmp.resolve("gate.xml");
    Cli.Result r = Cli.run("run", REGRESSED, "--out", tmp.resolve("out").toString(), "--junit", junit.toString(),
        "--quiet");
    assertEquals(1, r.exit(), r.err());
    assertEquals("", r.out());
    List<String> lines = r.errLines();
    String failure = lines.stream().filter(l -> l.contains("p95(wait{queue=team-a})")).findFirst().orElseThrow();
    assertTrue(failure.matches("examples/ci-gate\\.yaml:\\d+:5: FAIL p95\\(wait\\{queue=team-a}\\) < 20m: measured "
        + "\\S+, expected < 20m \\(\\S+ too high\\)"), failure);
    assertTrue(lines.get(lines.size() - 1).matches("batchsim: \\d+ of 7 expectations failed"), r.err());

    Document d = xml(junit);
    Element suite = (Element) d.getElementsByTagName("testsuite").item(0);
    assertEquals("ci-gate", suite.getAttribute("name"));
    assertEquals("7", suite.getAttribute("tests"));
    NodeList failures = d.getElementsByTagName("failure");
    assertTrue(failures.getLength() >= 1);
    Element first = (Element) failures.item(0).getParentNode();
    assertEquals("p95(wait{queue=team-a}) < 20m", first.getAttribute("name"));
    assertTrue(((Element) failures.item(0)).getAttribute("message").startsWith("measured "));
    assertTrue(Files.isRegularFile(tmp.resolve("out/summary.json")), "reports are written all the same");
  }

  @Test
  void check_printsOnlyVerdicts_andWritesReportsOnlyWhenAsked() throws Exception {
    Cli.Result r = Cli.run("check", GATE);
    assertEquals(0, r.exit(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals("ci-gate: invariants held after every event; 7 expectations", lines.get(0));
    assertEquals(8, lines.size(), r.out());
    assertTrue(lines.stream().skip(1).allMatch(l -> l.startsWith("  PASS ")), r.out());

    Cli.Result bad = Cli.run("check", REGRESSED, "--junit", tmp.resolve("j.xml").toString());
    assertEquals(1, bad.exit());
    assertTrue(bad.out().contains("  FAIL p95(wait{queue=team-a}) < 20m: measured "), bad.out());
    assertTrue(Files.isRegularFile(tmp.resolve("j.xml")));
  }

  @Test
  void setOverride_canRegressTheGateFromTheCommandLine() {
    Cli.Result r = Cli.run("check", GATE, "-q", "--set", "cluster.scheduling.podStartup=10m");
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.err().contains("FAIL p95(wait{queue=team-a}) < 20m"), r.err());
  }

  @Test
  void baseline_sameConfigurationPasses_regressedFails() throws Exception {
    Path base = tmp.resolve("baseline");
    assertEquals(0, Cli.run("run", "examples/quickstart.yaml", "-q", "--out", base.toString()).exit());
    Path scenario = tmp.resolve("gated.yaml");
    Files.writeString(scenario, "include: " + Path.of("examples/quickstart.yaml").toAbsolutePath() + "\n"
        + "baseline:\n  path: baseline/summary.json\n  tolerance: {wait_p95: 10%, utilization: 0.02, preemptions: 0}\n");

    Cli.Result same = Cli.run("check", scenario.toString());
    assertEquals(0, same.exit(), same.out() + same.err());
    assertTrue(same.out().contains("  PASS baseline: p95(wait{queue=team-a}) within 10%: measured "), same.out());

    Cli.Result worse = Cli.run("check", scenario.toString(), "-q", "--set", "cluster.scheduling.podStartup=10m");
    assertEquals(1, worse.exit(), worse.err());
    assertTrue(worse.err().contains("FAIL baseline: p95(wait) within 10%: measured "), worse.err());
  }

  @Test
  void missingBaseline_isBadInput() throws Exception {
    Path scenario = tmp.resolve("gated.yaml");
    Files.writeString(scenario, "include: " + Path.of("examples/quickstart.yaml").toAbsolutePath() + "\n"
        + "baseline: {path: nowhere, tolerance: {wait_p95: 10%}}\n");
    Cli.Result r = Cli.run("check", scenario.toString());
    assertEquals(2, r.exit());
    assertEquals(List.of(scenario + ":2:18: baseline.path: cannot read the baseline: " + tmp.resolve("nowhere")
        + ": no such file"), r.errLines());
    assertFalse(r.err().contains("Exception"));
  }
}
