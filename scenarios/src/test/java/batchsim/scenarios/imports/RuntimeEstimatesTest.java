package batchsim.scenarios.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.imports.RuntimeEstimates.Dist;
import batchsim.scenarios.imports.RuntimeEstimates.Source;
import batchsim.scenarios.yaml.Node;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An imported job's runtime: annotation, then its queue's flag or history, then --runtime. */
class RuntimeEstimatesTest {
  static final Path DIR = Path.of("src/test/resources/imports/priority");
  final List<String> problems = new ArrayList<>();

  Map<String, KubeObject> jobs() throws Exception {
    Map<String, KubeObject> out = new LinkedHashMap<>();
    KubeObjects.read(DIR.resolve("jobs.yaml"), "jobs.yaml", (at, path, m) -> problems.add(m))
        .forEach(o -> out.put(o.name(), o));
    return out;
  }

  /** The runtime node as the scenario writes it, e.g. {@code {lognormal: {median: 30m, p99: 4h}}}. */
  static String text(Node n) {
    if (n instanceof batchsim.scenarios.yaml.MapNode m) {
      List<String> parts = new ArrayList<>();
      m.entries().forEach((k, e) -> parts.add(k + ": " + text(e.value())));
      return "{" + String.join(", ", parts) + "}";
    }
    return Tree.text(n);
  }

  @Test
  void annotation_thenQueueFlag_thenHistory_thenRuntimeFlag() throws Exception {
    Map<String, KubeObject> jobs = jobs();
    RuntimeEstimates r = new RuntimeEstimates(null, List.of("research/batch=uniform:5m:15m"),
        (at, path, m) -> problems.add(at + ": " + m));
    for (long minutes : new long[] {10, 20, 20, 30, 40, 60, 120}) {
      r.observe("research/main", minutes * 60_000);
    }
    RuntimeEstimates.Estimate pcn = r.forJob(jobs.get("train-pcn"), "research/main");
    assertEquals(Source.ANNOTATION, pcn.source());
    assertEquals("45m", text(pcn.runtime()));
    assertEquals("jobs.yaml", pcn.runtime().location().file(), "located at the annotation");
    RuntimeEstimates.Estimate plain = r.forJob(jobs.get("train-plain"), "research/main");
    assertEquals("{lognormal: {median: 10m, p99: 1h}}", text(plain.runtime()), "a distribution in the annotation");
    RuntimeEstimates.Estimate batch = r.forJob(jobs.get("train-low-pod"), "research/batch");
    assertEquals(Source.QUEUE_FLAG, batch.source());
    assertEquals("{uniform: {min: 5m, max: 15m}}", text(batch.runtime()));
    RuntimeEstimates.Estimate main = r.forJob(jobs.get("train-gold"), "research/main");
    assertEquals(Source.QUEUE_HISTORY, main.source());
    assertEquals("{lognormal: {median: 30m, p99: 2h}}", text(main.runtime()), "median and p99 of the 7 observed");
    RuntimeEstimates.Estimate other = r.forJob(jobs.get("train-urgent"), "research/other");
    assertEquals(Source.DEFAULT, other.source());
    assertEquals("{lognormal: {median: 30m, p99: 4h}}", text(other.runtime()), "the placeholder");
    assertEquals(List.of("runtimes: 2 from batchsim.io/runtime annotations, 1 from --queue-runtime "
        + "research/batch=uniform:5m:15m, 1 from research/main's history (n=7, median 30m, p99 2h), 1 from --runtime "
        + "lognormal:30m:4h (placeholder: edit)"), r.summary());
    assertEquals(List.of(), problems);
  }

  @Test
  void tooLittleHistory_fallsBackToRuntime_andSaysSo() throws Exception {
    RuntimeEstimates r = new RuntimeEstimates("2h", List.of("research/mian=1h"), (at, path, m) -> problems.add(m));
    for (int i = 0; i < RuntimeEstimates.MIN_HISTORY - 1; i++) {
      r.observe("research/main", 600_000);
    }
    RuntimeEstimates.Estimate e = r.forJob(jobs().get("train-gold"), "research/main");
    assertEquals(Source.DEFAULT, e.source());
    assertEquals("2h", text(e.runtime()));
    assertEquals(List.of("runtimes: 1 from --runtime 2h",
        "runtimes: --queue-runtime research/mian is unused: no imported job is in that LocalQueue",
        "runtimes: research/main has 4 finished workloads, fewer than 5 to fit: its 1 job uses --runtime"),
        r.summary());
  }

  @Test
  void fit_nearestRankInWholeSeconds() {
    assertEquals(new Dist("lognormal", List.of(2_000L, 9_000L)), RuntimeEstimates.fit(List.of(9_400L, 1_000L, 2_000L,
        2_200L, 3_000L)));
    assertEquals(new Dist("lognormal", List.of(1_000L, 1_000L)), RuntimeEstimates.fit(List.of(0L, 0L, 0L, 0L, 0L)),
        "at least a second, so the lognormal is valid");
  }

  @Test
  void distSyntax() {
    assertEquals("exponential:45m", Dist.parse("exponential:45m").toString());
    assertEquals("1h30m", Dist.parse("1.5h").toString());
    assertEquals("'lognormal:4h': lognormal needs MEDIAN:P99, e.g. lognormal:30m:4h",
        assertThrows(IllegalArgumentException.class, () -> Dist.parse("lognormal:4h")).getMessage());
    assertEquals("'lognormal:4h:30m': the p99 must be at least the median",
        assertThrows(IllegalArgumentException.class, () -> Dist.parse("lognormal:4h:30m")).getMessage());
    assertEquals("'gamma:1h' is not a runtime: use 45m, lognormal:MEDIAN:P99, exponential:MEAN or uniform:MIN:MAX",
        assertThrows(IllegalArgumentException.class, () -> Dist.parse("gamma:1h")).getMessage());
    assertEquals("'uniform:1h:soon': 'soon' is not a duration (use e.g. 500ms, 30s, 45m, 2h, 7d, 1h30m)",
        assertThrows(IllegalArgumentException.class, () -> Dist.parse("uniform:1h:soon")).getMessage());
    assertEquals("--queue-runtime 'main=45m': expected NAMESPACE/LOCALQUEUE=DIST, e.g. team-a/main=lognormal:20m:3h",
        assertThrows(IllegalArgumentException.class, () -> new RuntimeEstimates(null, List.of("main=45m"),
            (at, path, m) -> { })).getMessage());
  }

  @Test
  void badAnnotation_isALocatedError() {
    KubeObject job = KubeObjects.parse("job.yaml", """
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: j
          namespace: research
          annotations:
            batchsim.io/runtime: lognormal:1h
        """, (at, path, m) -> problems.add(m)).get(0);
    new RuntimeEstimates(null, List.of(), (at, path, m) -> problems.add(at + ": " + m)).forJob(job, "research/main");
    assertEquals(List.of("job.yaml:7:26: Job/research/j: annotation batchsim.io/runtime: 'lognormal:1h': lognormal "
        + "needs MEDIAN:P99, e.g. lognormal:30m:4h"), problems);
  }
}
