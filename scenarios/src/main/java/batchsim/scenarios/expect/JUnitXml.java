package batchsim.scenarios.expect;

import batchsim.reports.Provenance;
import batchsim.scenarios.tables.Table;
import java.io.StringWriter;
import java.util.List;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Expectation verdicts as JUnit XML, the format CI systems (GitHub Actions reporters, GitLab, Jenkins)
 * show as test results: one {@code <testsuite>} per scenario run, one {@code <testcase>} per expectation,
 * a {@code <failure>} with the measured and expected values, the run's provenance as the suite's
 * {@code <properties>} (a key that repeats, {@code input}, is one property per file), and the {@code time}
 * attributes CI servers read: a suite's is its run's wall time in seconds, shared evenly among its test cases
 * (which are judged together after the run), so that a tool summing the cases' times (GitLab) shows the run's
 * time too. That makes junit.xml the one output that differs between two runs of one scenario. Written with
 * the JDK's own StAX writer (the default factory, so a StAX library on the class path cannot change the
 * bytes), which escapes markup; the layout (two-space indent, one element per line) is written here.
 */
public final class JUnitXml {
  private JUnitXml() {}

  /**
   * One scenario run's verdicts.
   *
   * @param name the suite name (the scenario name, plus the sweep cell)
   * @param file the scenario file
   * @param provenance where the run came from ({@link Provenance#lines}); empty writes no properties
   * @param wallNanos the wall time of the run that gave the verdicts
   */
  public record Suite(String name, String file, List<Outcome> outcomes, List<Provenance.Line> provenance,
      long wallNanos) {
    public Suite {
      provenance = List.copyOf(provenance);
    }

    /** A suite without provenance (the stories). */
    public Suite(String name, String file, List<Outcome> outcomes, long wallNanos) {
      this(name, file, outcomes, List.of(), wallNanos);
    }

    long count(Outcome.Status s) {
      return outcomes.stream().filter(o -> o.status() == s).count();
    }
  }

  public static String render(List<Suite> suites) {
    StringWriter out = new StringWriter();
    try {
      XMLStreamWriter w = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(out);
      w.writeStartDocument("UTF-8", "1.0");
      w.writeCharacters("\n");
      testsuites(w, suites);
      w.writeCharacters("\n");
      w.writeEndDocument();
      w.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("writing XML to a string", e); // names are constants; cannot happen
    }
    return out.toString();
  }

  private static void testsuites(XMLStreamWriter w, List<Suite> suites) throws XMLStreamException {
    long tests = 0;
    long failures = 0;
    long skipped = 0;
    long nanos = 0;
    for (Suite s : suites) {
      tests += s.outcomes().size();
      failures += s.count(Outcome.Status.FAIL);
      skipped += s.count(Outcome.Status.SKIP);
      nanos += s.wallNanos();
    }
    w.writeStartElement("testsuites");
    w.writeAttribute("name", "batchsim");
    counts(w, tests, failures, skipped);
    w.writeAttribute("time", seconds(nanos));
    for (Suite s : suites) {
      w.writeCharacters("\n  ");
      testsuite(w, s);
    }
    w.writeCharacters("\n");
    w.writeEndElement();
  }

  private static void testsuite(XMLStreamWriter w, Suite s) throws XMLStreamException {
    w.writeStartElement("testsuite");
    attribute(w, "name", s.name());
    counts(w, s.outcomes().size(), s.count(Outcome.Status.FAIL), s.count(Outcome.Status.SKIP));
    w.writeAttribute("time", seconds(s.wallNanos()));
    attribute(w, "file", s.file());
    if (!s.provenance().isEmpty()) {
      w.writeCharacters("\n    ");
      w.writeStartElement("properties");
      for (Provenance.Line l : s.provenance()) {
        w.writeCharacters("\n      ");
        w.writeEmptyElement("property");
        attribute(w, "name", l.key());
        attribute(w, "value", l.value());
      }
      w.writeCharacters("\n    ");
      w.writeEndElement();
    }
    for (Outcome o : s.outcomes()) {
      w.writeCharacters("\n    ");
      testcase(w, s, o);
    }
    w.writeCharacters("\n  ");
    w.writeEndElement();
  }

  private static void testcase(XMLStreamWriter w, Suite s, Outcome o) throws XMLStreamException {
    if (o.status() == Outcome.Status.PASS) {
      w.writeEmptyElement("testcase");
    } else {
      w.writeStartElement("testcase");
    }
    attribute(w, "classname", "batchsim." + s.name());
    attribute(w, "name", o.name());
    w.writeAttribute("time", seconds(s.wallNanos() / s.outcomes().size()));
    attribute(w, "file", o.at().line() > 0 ? o.at().file() : s.file()); // not a --set label
    if (o.at().line() > 0) {
      w.writeAttribute("line", Integer.toString(o.at().line()));
    }
    switch (o.status()) {
      case PASS:
        return;
      case SKIP:
        w.writeCharacters("\n      ");
        w.writeEmptyElement("skipped");
        attribute(w, "message", o.detail());
        break;
      default:
        w.writeCharacters("\n      ");
        w.writeStartElement("failure");
        w.writeAttribute("type", "ExpectationFailed");
        attribute(w, "message", o.detail());
        w.writeCharacters(Table.xmlChars(o.at() + ": " + o.name() + ": " + o.detail()));
        w.writeEndElement();
    }
    w.writeCharacters("\n    ");
    w.writeEndElement();
  }

  private static void counts(XMLStreamWriter w, long tests, long failures, long skipped) throws XMLStreamException {
    w.writeAttribute("tests", Long.toString(tests));
    w.writeAttribute("failures", Long.toString(failures));
    w.writeAttribute("errors", "0");
    w.writeAttribute("skipped", Long.toString(skipped));
  }

  /** Seconds with millisecond digits, as JUnit and Surefire write them ("1.250"). */
  private static String seconds(long nanos) {
    return java.math.BigDecimal.valueOf(nanos / 1_000_000, 3).toPlainString();
  }

  private static void attribute(XMLStreamWriter w, String name, String value) throws XMLStreamException {
    w.writeAttribute(name, Table.xmlChars(value));
  }
}
