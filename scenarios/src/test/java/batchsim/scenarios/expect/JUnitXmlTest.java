package batchsim.scenarios.expect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import batchsim.scenarios.yaml.Location;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class JUnitXmlTest {
  static Document parse(String xml) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void oneSuitePerScenario_oneCasePerExpectation_failuresCarryTheNumbers() throws Exception {
    Location at = new Location("ci.yaml", 3, 5);
    String xml = JUnitXml.render(List.of(new JUnitXml.Suite("gate", "ci.yaml", List.of(
        new Outcome("p95(wait) < 20m", Outcome.Status.PASS, "measured 1m", at),
        new Outcome("count(pending) == 0", Outcome.Status.FAIL, "measured 3 & <more>, expected == 0", at),
        new Outcome("p99(start) < 1h", Outcome.Status.SKIP, "not evaluated", Location.argument("--set x=1"))),
        3_000_000_000L)));
    Document d = parse(xml);
    Element root = d.getDocumentElement();
    assertEquals("testsuites", root.getTagName());
    assertEquals("3", root.getAttribute("tests"));
    assertEquals("1", root.getAttribute("failures"));
    assertEquals("1", root.getAttribute("skipped"));
    Element suite = (Element) root.getElementsByTagName("testsuite").item(0);
    assertEquals("gate", suite.getAttribute("name"));
    Element failure = (Element) d.getElementsByTagName("failure").item(0);
    assertEquals("measured 3 & <more>, expected == 0", failure.getAttribute("message"));
    assertEquals("ci.yaml:3:5: count(pending) == 0: measured 3 & <more>, expected == 0", failure.getTextContent());
    Element c = (Element) d.getElementsByTagName("testcase").item(0);
    assertEquals("p95(wait) < 20m", c.getAttribute("name"));
    assertEquals("3", c.getAttribute("line"));
    assertEquals(1, d.getElementsByTagName("skipped").getLength());
  }

  @Test
  void layout_timesInSecondsWithMilliseconds_sharedEvenlyAmongTheCases() {
    Location at = new Location("f", 1, 1);
    String xml = JUnitXml.render(List.of(new JUnitXml.Suite("s", "f", List.of(), 1_234_567_890L),
        new JUnitXml.Suite("t", "f", List.of(new Outcome("a", Outcome.Status.PASS, "ok", at),
            new Outcome("b", Outcome.Status.PASS, "ok", at)), 1_000_000_000L)));
    assertEquals("""
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="batchsim" tests="2" failures="0" errors="0" skipped="0" time="2.234">
          <testsuite name="s" tests="0" failures="0" errors="0" skipped="0" time="1.234" file="f">
          </testsuite>
          <testsuite name="t" tests="2" failures="0" errors="0" skipped="0" time="1.000" file="f">
            <testcase classname="batchsim.t" name="a" time="0.500" file="f" line="1"/>
            <testcase classname="batchsim.t" name="b" time="0.500" file="f" line="1"/>
          </testsuite>
        </testsuites>
        """, xml);
  }

  /** Read back by Maven Surefire's own JUnit XML reader (what maven-surefire-report-plugin and CI plugins use). */
  @Test
  void surefiresReader_seesEveryCase_theCounts_andTheTimes() throws Exception {
    Location at = new Location("ci.yaml", 3, 5);
    String xml = JUnitXml.render(List.of(new JUnitXml.Suite("gate", "ci.yaml", List.of(
        new Outcome("p95(wait) < 20m", Outcome.Status.PASS, "measured 1m", at),
        new Outcome("count(pending) == 0", Outcome.Status.FAIL, "measured 3, expected == 0", at),
        new Outcome("p99(start) < 1h", Outcome.Status.SKIP, "not evaluated", at),
        new Outcome("utilization(cpu) > 0.5", Outcome.Status.PASS, "measured 0.7", at)), 2_500_000_000L)));
    var suites = new org.apache.maven.plugins.surefire.report.TestSuiteXmlParser(
        new org.apache.maven.plugin.surefire.log.api.NullConsoleLogger()).parse(new java.io.InputStreamReader(
            new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8));
    assertEquals(1, suites.size());
    var suite = suites.get(0);
    assertEquals(4, suite.getNumberOfTests());
    assertEquals(1, suite.getNumberOfFailures());
    assertEquals(1, suite.getNumberOfSkipped());
    assertEquals(0, suite.getNumberOfErrors());
    assertEquals(2.5f, suite.getTimeElapsed());
    assertEquals(List.of("p95(wait) < 20m", "count(pending) == 0", "p99(start) < 1h", "utilization(cpu) > 0.5"),
        suite.getTestCases().stream().map(c -> c.getName()).toList());
    assertEquals(List.of(0.625f, 0.625f, 0.625f, 0.625f), suite.getTestCases().stream().map(c -> c.getTime()).toList());
    var failed = suite.getTestCases().get(1);
    assertEquals(true, failed.hasFailure());
    assertEquals("measured 3, expected == 0", failed.getFailureMessage());
    assertEquals("ExpectationFailed", failed.getFailureType());
    assertEquals(true, suite.getTestCases().get(2).hasSkipped());
    assertEquals(true, suite.getTestCases().get(0).isSuccessful());
  }

  @Test
  void escapesMarkupQuotesAndDropsControlCharacters() throws Exception {
    Location at = new Location("dir/it's \"ci\" & <co>.yaml", 7, 1);
    String detail = "measured 3 < 5 & \"x\" 'y' > z\u0001\u001f\tend";
    String xml = JUnitXml.render(List.of(new JUnitXml.Suite("a<b>&\"c\"", "f&g.yaml", List.of(
        new Outcome("count(x{queue=\"q\"}) < 1", Outcome.Status.FAIL, detail, at),
        new Outcome("skip'd", Outcome.Status.SKIP, "why \u0007<not>", at)), 0)));
    assertFalse(xml.contains("\u0001") || xml.contains("\u001f") || xml.contains("\u0007"), xml);
    Document d = parse(xml);
    Element suite = (Element) d.getElementsByTagName("testsuite").item(0);
    assertEquals("a<b>&\"c\"", suite.getAttribute("name"));
    assertEquals("f&g.yaml", suite.getAttribute("file"));
    assertEquals("1", suite.getAttribute("failures"));
    assertEquals("1", suite.getAttribute("skipped"));
    assertEquals("0", suite.getAttribute("errors"));
    Element c = (Element) d.getElementsByTagName("testcase").item(0);
    assertEquals("batchsim.a<b>&\"c\"", c.getAttribute("classname"));
    assertEquals("count(x{queue=\"q\"}) < 1", c.getAttribute("name"));
    assertEquals("dir/it's \"ci\" & <co>.yaml", c.getAttribute("file"));
    assertEquals("7", c.getAttribute("line"));
    Element failure = (Element) c.getElementsByTagName("failure").item(0);
    assertEquals("ExpectationFailed", failure.getAttribute("type"));
    // a parser normalizes the tab in an attribute value to a space; element text keeps it
    assertEquals("measured 3 < 5 & \"x\" 'y' > z end", failure.getAttribute("message"));
    assertEquals(at + ": count(x{queue=\"q\"}) < 1: measured 3 < 5 & \"x\" 'y' > z\tend",
        failure.getTextContent());
    Element skipped = (Element) d.getElementsByTagName("skipped").item(0);
    assertEquals("skip'd", ((Element) skipped.getParentNode()).getAttribute("name"));
    assertEquals("why <not>", skipped.getAttribute("message"));
  }

  @Test
  void passingCasesAreEmptyElements_suitesCountTheirOwn() throws Exception {
    Location at = new Location("a.yaml", 2, 3);
    String xml = JUnitXml.render(List.of(
        new JUnitXml.Suite("one", "a.yaml", List.of(new Outcome("x", Outcome.Status.PASS, "ok", at)), 0),
        new JUnitXml.Suite("two", "b.yaml", List.of(
            new Outcome("y", Outcome.Status.FAIL, "bad", Location.argument("--set y=1"))), 0)));
    Document d = parse(xml);
    assertEquals("2", d.getDocumentElement().getAttribute("tests"));
    assertEquals("1", d.getDocumentElement().getAttribute("failures"));
    Element first = (Element) d.getElementsByTagName("testcase").item(0);
    assertEquals(0, first.getChildNodes().getLength());
    Element second = (Element) d.getElementsByTagName("testsuite").item(1);
    assertEquals("two", second.getAttribute("name"));
    assertEquals("1", second.getAttribute("tests"));
    Element secondCase = (Element) second.getElementsByTagName("testcase").item(0);
    assertEquals("b.yaml", secondCase.getAttribute("file"), "a --set label is not a file");
    assertFalse(secondCase.hasAttribute("line"));
  }
}
