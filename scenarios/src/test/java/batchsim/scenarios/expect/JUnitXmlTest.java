package batchsim.scenarios.expect;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        new Outcome("p99(start) < 1h", Outcome.Status.SKIP, "not evaluated", Location.argument("--set x=1"))))));
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
  void deterministic_noTimes() {
    String xml = JUnitXml.render(List.of(new JUnitXml.Suite("s", "f", List.of())));
    assertEquals("""
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="batchsim" tests="0" failures="0" errors="0" skipped="0">
          <testsuite name="s" tests="0" failures="0" errors="0" skipped="0" file="f">
          </testsuite>
        </testsuites>
        """, xml);
  }
}
