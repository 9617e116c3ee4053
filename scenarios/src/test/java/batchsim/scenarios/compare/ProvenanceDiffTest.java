package batchsim.scenarios.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.reports.Provenance.Line;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProvenanceDiffTest {
  private static List<Line> lines(String traceSha, String path) {
    return List.of(new Line("engine", "kueue"), new Line("seed", "42"), new Line("scenario", path),
        new Line("scenario sha256", "aa"), new Line("input", "demo.yaml sha256:bb"),
        new Line("input", "traces/t.swf sha256:" + traceSha), new Line("batchsim", "0.1.0 (commit c)"));
  }

  @Test
  void aTraceWhoseBytesChanged_isToldApart_butNotTheScenariosPath() {
    assertEquals(List.of("input traces/t.swf: sha256:cc → sha256:dd"),
        ProvenanceDiff.of(lines("cc", "a/demo.yaml"), lines("dd", "/elsewhere/demo.yaml")));
    assertEquals(List.of(), ProvenanceDiff.of(lines("cc", "a/demo.yaml"), lines("cc", "b/demo.yaml")));
  }
}
