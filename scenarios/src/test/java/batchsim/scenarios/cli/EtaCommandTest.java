package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@code batchsim eta}: text and JSON answers, and bad inputs (exit 2, located, nothing on standard output). */
class EtaCommandTest {
  static final String SNAPSHOT = "examples/cluster-snapshot";
  static final String JOB = "examples/cluster-snapshot/new-jobs/finetune.yaml";
  static final String FIXTURES = "src/test/resources/imports/eta/";

  @Test
  void text_givesPercentilesAsDurationsAndClockTimes_andWhy() {
    Cli.Result r = Cli.run("eta", SNAPSHOT, JOB, "-r", "3");
    assertEquals(0, r.exit(), r.err());
    String out = r.out();
    assertTrue(out.contains("t = 0 is 2026-11-26T09:29:00Z"), out);
    assertTrue(out.contains("no arrivals after the snapshot"), out);
    assertTrue(out.contains("snapshot's runtimes: 1 from batchsim.io/runtime annotations, 4 from ml/main's history"), out);
    assertTrue(out.contains("Job ml/finetune-llm (" + JOB + ":3:1) in ClusterQueue ml"), out);
    assertTrue(out.matches("(?s).*  quota reserved  \\+\\S+ \\(\\d\\d:\\d\\d:\\d\\dZ\\) .*"), out);
    assertTrue(out.contains("at t = 0: WaitingForQuota: couldn't assign flavors to pod set main"), out);
    assertTrue(out.contains("got in after ml/"), out);
    assertTrue(out.contains("preempts: nothing"), out);
  }

  @Test
  void json_followsTheDocumentedSchema() throws Exception {
    Cli.Result r = Cli.run("eta", SNAPSHOT, JOB, "--workload", "ml/job-eval-c-1647a", "-r", "2", "--json");
    assertEquals(0, r.exit(), r.err());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals("batchsim.eta/v1", root.get("schema").asText());
    assertEquals("2026-11-26T09:29:00Z", root.get("snapshotTime").asText());
    assertEquals("none", root.get("arrivals").asText());
    assertEquals(2, root.get("replicas").asInt());
    JsonNode eval = root.get("workloads").get(1);
    assertEquals("ml/job-eval-c-1647a", eval.get("workload").asText());
    assertEquals(3661.0, eval.get("started").get("p50").get("seconds").asDouble());
    assertEquals("2026-11-26T10:30:01Z", eval.get("started").get("p50").get("time").asText());
    assertEquals(0, eval.get("started").get("neverReplicas").asInt());
    assertEquals("ml/job-train-b-53e71", eval.get("releasedBy").get(0).get("what").asText());
    assertEquals(2, eval.get("perReplica").size());
  }

  @Test
  void anUnknownWorkload_isExit2_listingThePendingOnes() {
    Cli.Result r = Cli.run("eta", SNAPSHOT, "--workload", "ml/job-eval-c");
    assertEquals(2, r.exit());
    assertEquals("", r.out());
    assertEquals("--workload ml/job-eval-c: the snapshot has no workload ml/job-eval-c; its pending workloads: "
        + "ml/job-eval-c-1647a, ml/job-sweep-e-1c059, ml/job-stuck-f-0cc65", r.err().strip());
  }

  @Test
  void aJobWhoseQueueDoesNotExist_isExit2_atItsLabel() {
    Cli.Result r = Cli.run("eta", SNAPSHOT, FIXTURES + "wrong-queue-job.yaml");
    assertEquals(2, r.exit());
    assertEquals(FIXTURES + "wrong-queue-job.yaml:9:32: metadata.labels[kueue.x-k8s.io/queue-name]: unknown "
        + "LocalQueue 'ml/research' (known: ml/main)", r.err().strip());
  }

  @Test
  void aSnapshotThatIsNeither_isExit2_located() {
    Cli.Result r = Cli.run("eta", FIXTURES + "neither.yaml", JOB);
    assertEquals(2, r.exit());
    assertTrue(r.err().startsWith(FIXTURES + "neither.yaml:2:1: neither a scenario"), r.err());
  }

  @Test
  void nothingAskedOrBadOptions_areExit2() {
    assertEquals(2, Cli.run("eta", SNAPSHOT).exit());
    assertEquals(2, Cli.run("eta", SNAPSHOT, JOB, "--arrivals", "sometimes").exit());
    Cli.Result r = Cli.run("eta", SNAPSHOT, JOB, "--arrivals", "scenario");
    assertEquals(2, r.exit());
    assertTrue(r.err().startsWith("--arrivals: 'scenario' keeps a scenario's classes"), r.err());
    assertTrue(Cli.run("eta", SNAPSHOT, JOB, "--runtime", "soon").err().startsWith("--runtime: --runtime 'soon'"));
  }
}
