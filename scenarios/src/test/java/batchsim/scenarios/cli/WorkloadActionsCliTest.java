package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workload and admission-check timeline actions under Kueue, run with {@code --record status}: the
 * workloads' conditions as Kueue writes them, and the located refusals (exit 2, no output) of actions on
 * workloads that do not exist at that time or in a state Kueue refuses.
 */
class WorkloadActionsCliTest {
  private static final String WORKLOADS = "src/test/resources/actions/workloads.yaml";
  private static final String CHECKS = "src/test/resources/actions/checks.yaml";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;

  private Path scenario(String base, String... events) throws Exception {
    StringBuilder sb = new StringBuilder(Files.readString(Path.of(base))).append("events:\n");
    for (String e : events) {
      sb.append("  - ").append(e).append('\n');
    }
    Path p = tmp.resolve("s.yaml");
    Files.writeString(p, sb.toString());
    return p;
  }

  /** The status records of Workload {@code name}, in time order. */
  private List<JsonNode> run(String base, String name, String... events) throws Exception {
    Cli.Result r = Cli.run("run", scenario(base, events).toString(), "--record", "status", "--out",
        tmp.resolve("out").toString(), "--quiet");
    assertEquals(0, r.exit(), r.err());
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(tmp.resolve("out/status.jsonl"))) {
      JsonNode n = JSON.readTree(line);
      if (n.get("kind").asText().equals("Workload") && n.get("name").asText().equals(name)) {
        out.add(n);
      }
    }
    return out;
  }

  /** The record written at {@code seconds}. */
  private static JsonNode at(List<JsonNode> records, long seconds) {
    return records.stream().filter(n -> n.get("time").asLong() == seconds * 1000).findFirst()
        .orElseThrow(() -> new AssertionError("no record at " + seconds + "s in " + records));
  }

  /** "status reason message" of a condition. */
  private static String condition(JsonNode record, String type) {
    for (JsonNode c : record.get("status").path("conditions")) {
      if (c.get("type").asText().equals(type)) {
        return c.get("status").asText() + " " + c.get("reason").asText() + " " + c.get("message").asText();
      }
    }
    return "absent";
  }

  private static String check(JsonNode record) {
    JsonNode c = record.get("status").get("admissionChecks").get(0);
    return c.get("state").asText() + " " + c.get("message").asText();
  }

  private String refused(String base, String... events) throws Exception {
    Cli.Result r = Cli.run("run", scenario(base, events).toString(), "--out", tmp.resolve("out").toString(), "--quiet");
    assertEquals(2, r.exit(), r.err());
    assertFalse(Files.exists(tmp.resolve("out")), "no output is written");
    return r.err();
  }

  @Test
  void deactivate_evictsWithKueuesReason_andReactivateRequeues() throws Exception {
    List<JsonNode> big = run(WORKLOADS, "big", "{at: 10m, deactivateWorkload: {workload: ns/big}}",
        "{at: 40m, activateWorkload: {workload: big}}");
    JsonNode evicted = at(big, 600);
    assertFalse(evicted.get("spec").get("active").asBoolean());
    assertEquals("True Deactivated The workload is deactivated", condition(evicted, "Evicted"));
    JsonNode gone = at(big, 630); // the pods' grace period
    assertEquals("False Deactivated The workload is deactivated", condition(gone, "QuotaReserved"));
    assertEquals("False Deactivated The workload is deactivated", condition(gone, "Requeued"));
    assertFalse(gone.get("status").has("admission"));
    JsonNode back = at(big, 2400);
    assertTrue(back.get("spec").get("active").asBoolean());
    assertEquals("True Reactivated The workload was reactivated", condition(back, "Requeued"));
    // Its quota went to the next workload meanwhile.
    assertEquals("True QuotaReserved Quota reserved in ClusterQueue team-a", condition(at(run(WORKLOADS, "second",
        "{at: 10m, deactivateWorkload: {workload: ns/big}}"), 631), "QuotaReserved"));
  }

  @Test
  void deactivatingAPendingWorkload_takesItOutOfItsQueue() throws Exception {
    List<JsonNode> second = run(WORKLOADS, "second", "{at: 10m, deactivateWorkload: {workload: ns/second}}",
        "{at: 20m, finishWorkload: {workload: ns/big}}");
    JsonNode off = at(second, 600);
    assertEquals("False Deactivated The workload is deactivated", condition(off, "QuotaReserved"));
    assertEquals("True Deactivated The workload is deactivated", condition(off, "Evicted"));
    // The quota big leaves goes to third, not to the deactivated second.
    List<JsonNode> third = run(WORKLOADS, "third", "{at: 10m, deactivateWorkload: {workload: ns/second}}",
        "{at: 20m, finishWorkload: {workload: ns/big}}");
    assertEquals("True QuotaReserved Quota reserved in ClusterQueue team-a", condition(at(third, 1201), "QuotaReserved"));
  }

  @Test
  void finishAndFail_setFinishedWithTheJobsReason_andReleaseQuota() throws Exception {
    List<JsonNode> big = run(WORKLOADS, "big", "{at: 10m, finishWorkload: {workload: ns/big}}");
    assertEquals("True Succeeded Job finished successfully", condition(at(big, 600), "Finished"));
    List<JsonNode> failed = run(WORKLOADS, "big", "{at: 10m, failWorkload: {workload: big}}");
    assertEquals("True Failed Job has reached the specified backoff limit", condition(at(failed, 600), "Finished"));
    assertTrue(at(failed, 600).get("status").has("admission"), "Kueue keeps a finished workload's admission");
    List<JsonNode> second = run(WORKLOADS, "second", "{at: 10m, failWorkload: {workload: big}}");
    assertEquals("True QuotaReserved Quota reserved in ClusterQueue team-a", condition(at(second, 601), "QuotaReserved"));
  }

  @Test
  void priority_reordersThePendingWorkloads_andPreemptsLowerOnes() throws Exception {
    // second, lowered below third, lets third take the quota big leaves (a cycle runs 1 s after the release).
    List<JsonNode> third = run(WORKLOADS, "third", "{at: 10m, finishWorkload: {workload: ns/big}}",
        "{at: 5m, setWorkloadPriority: {workload: ns/second, priority: -5}}");
    assertEquals("True QuotaReserved Quota reserved in ClusterQueue team-a", condition(at(third, 601), "QuotaReserved"));
    List<JsonNode> big = run(WORKLOADS, "big", "{at: 20m, setWorkloadPriority: {workload: ns/third, priorityClass: high}}");
    assertTrue(condition(at(big, 1200), "Preempted").startsWith("True InClusterQueue"), big.toString());
  }

  @Test
  void move_queuesAPendingWorkloadInTheOtherClusterQueue() throws Exception {
    List<JsonNode> second = run(WORKLOADS, "second", "{at: 30m, moveWorkload: {workload: ns/second, localQueue: ns/b}}");
    JsonNode moved = at(second, 1800);
    assertEquals("True QuotaReserved Quota reserved in ClusterQueue team-b", condition(moved, "QuotaReserved"));
    assertEquals("team-b", moved.get("status").get("admission").get("clusterQueue").asText());
  }

  @Test
  void actionsOnWorkloadsThatDoNotExistThen_areRefusedWithTheirLocation() throws Exception {
    String err = refused(WORKLOADS, "{at: 30s, finishWorkload: {workload: ns/second}}");
    assertTrue(err.contains("s.yaml:31:5: events[0]: at 30s: workload ns/second does not exist: it has not arrived (yet)"),
        err);
    err = refused(WORKLOADS, "{at: 10m, deleteWorkload: {workload: ns/second}}",
        "{at: 20m, activateWorkload: {workload: ns/second}}");
    assertTrue(err.contains("s.yaml:32:5: events[1]: at 20m: workload ns/second does not exist: it was deleted at 10m"),
        err);
    err = refused(WORKLOADS, "{at: 10m, finishWorkload: {workload: ns/big}}",
        "{at: 20m, setWorkloadPriority: {workload: ns/big, priority: 3}}");
    assertTrue(err.contains("workload ns/big does not exist: it finished at 10m"), err);
  }

  @Test
  void whatKueuesWebhooksRefuse_isRefusedWithTheirMessage() throws Exception {
    String err = refused(WORKLOADS, "{at: 10m, moveWorkload: {workload: ns/big, localQueue: ns/b}}");
    assertTrue(err.contains("at 10m: workload big: metadata.labels[kueue.x-k8s.io/queue-name]: Invalid value: \"b\": "
        + "field is immutable"), err);
    err = refused(WORKLOADS, "{at: 10m, setWorkloadPriority: {workload: ns/big, priorityClass: high}}");
    assertTrue(err.contains("WorkloadPriorityClass cannot be added to a non-suspended workload"), err);
    err = refused(CHECKS, "{at: 10m, setAdmissionCheck: {workload: ns/other, check: prov, state: Ready}}");
    assertTrue(err.contains("ClusterQueue team-b of workload other has no admission check prov"), err);
    err = refused(CHECKS, "{at: 10m, setProvisioningRequest: {workload: ns/other, condition: Failed}}");
    assertTrue(err.contains("workload other has no ProvisioningRequest: no admission check of its ClusterQueue team-b"
        + " made one"), err);
    err = refused(CHECKS, "{at: 10m, setProvisioningRequest: {workload: ns/other, check: prov, condition: Failed}}");
    assertTrue(err.contains("workload other has no ProvisioningRequest for check prov: its ClusterQueue team-b has no "
        + "such check"), err);
    err = refused(CHECKS, "{at: 5m, setAdmissionCheck: {workload: ns/job, check: prov, state: Rejected}}",
        "{at: 10m, setAdmissionCheck: {workload: ns/job, check: prov, state: Ready}}");
    assertTrue(err.contains("at 10m: workload job holds no quota reservation to check (it is deactivated)"), err);
  }

  @Test
  void checkVerdicts_goThroughKueuesAdmissionCheckPath() throws Exception {
    List<JsonNode> job = run(CHECKS, "job", "{at: 5m, setAdmissionCheck: {workload: ns/job, check: prov, state: Retry,"
        + " message: try later}}", "{at: 10m, setAdmissionCheck: {workload: ns/job, check: prov, state: Ready}}",
        "{at: 20m, setAdmissionCheck: {workload: ns/job, check: prov, state: Rejected, message: no}}");
    JsonNode retry = at(job, 300);
    assertEquals("Retry try later", check(retry));
    assertEquals("True AdmissionCheck Evicted due to AdmissionCheck in Retry state: \"prov\" (try later)",
        condition(retry, "Evicted"));
    JsonNode ready = at(job, 600);
    assertEquals("True Admitted The workload is admitted", condition(ready, "Admitted"));
    // Rejected after admission: Kueue evicts and deactivates.
    assertEquals("True DeactivatedDueToAdmissionCheck The workload is deactivated due to AdmissionCheck in Rejected "
        + "state: \"prov\" (no)", condition(at(job, 1200), "Evicted"));
    assertFalse(at(job, 1230).get("spec").get("active").asBoolean());
  }

  @Test
  void provisioningConditions_goThroughTheProvisioningController() throws Exception {
    List<JsonNode> job = run(CHECKS, "job", "{at: 5m, setProvisioningRequest: {workload: ns/job, condition: Failed}}",
        "{at: 10m, setProvisioningRequest: {workload: ns/job, condition: BookingExpired}}",
        "{at: 20m, setProvisioningRequest: {workload: ns/job, check: prov, condition: Provisioned}}",
        "{at: 30m, setProvisioningRequest: {workload: ns/job, condition: BookingExpired}}",
        "{at: 40m, setProvisioningRequest: {workload: ns/job, condition: CapacityRevoked}}");
    assertEquals("Retry Retrying after failure: Failed (attempt 1)", check(at(job, 300)));
    assertEquals("1970-01-01T00:06:00Z", at(job, 300).get("status").get("requeueState").get("requeueAt").asText());
    assertEquals("Retry Retrying after booking expired: BookingExpired (attempt 2)", check(at(job, 600)));
    assertEquals("1970-01-01T00:12:00Z", at(job, 600).get("status").get("requeueState").get("requeueAt").asText());
    assertEquals("Ready Provisioned", check(at(job, 1200)));
    assertEquals("True Admitted The workload is admitted", condition(at(job, 1200), "Admitted"));
    assertTrue(job.stream().noneMatch(n -> n.get("time").asLong() == 1_800_000), "BookingExpired after admission is ignored");
    assertEquals("Rejected CapacityRevoked", check(at(job, 2400)));
    assertEquals("True DeactivatedDueToAdmissionCheck", condition(at(job, 2400), "Evicted").substring(0, 35));
  }
}
