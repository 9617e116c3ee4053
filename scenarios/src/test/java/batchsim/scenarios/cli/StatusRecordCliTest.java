package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --record status}: status.jsonl in Kueue's API shapes, and {@code at(...)} expectations. */
class StatusRecordCliTest {
  static final String CYCLES = "src/test/resources/status/reclaim-cycles.yaml";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;

  private List<JsonNode> record(String scenario, String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of("run", scenario, "--record", "status", "--out",
        tmp.resolve("out").toString(), "--quiet"));
    args.addAll(List.of(more));
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertEquals(0, r.exit(), r.err());
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(tmp.resolve("out/status.jsonl"))) {
      out.add(JSON.readTree(line));
    }
    return out;
  }

  private static Set<String> fields(JsonNode n) {
    Set<String> out = new TreeSet<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void statusJsonl_isOneChangePerLine_inTimeOrder_shapedAsKueuesApi() throws Exception {
    List<JsonNode> lines = record(CYCLES);
    long last = 0;
    Map<String, JsonNode> previous = new HashMap<>();
    Set<String> kinds = new TreeSet<>();
    for (JsonNode l : lines) {
      long t = l.get("time").asLong();
      assertTrue(t >= last, "time order: " + l);
      last = t;
      String kind = l.get("kind").asText();
      kinds.add(kind);
      boolean namespaced = kind.equals("Workload") || kind.equals("LocalQueue");
      assertEquals(namespaced, l.has("namespace"), l.toString());
      assertEquals(kind.equals("Workload"), l.has("spec"), l.toString());
      String key = kind + "/" + l.path("namespace").asText() + "/" + l.get("name").asText();
      JsonNode before = previous.put(key, l);
      assertFalse(before != null && before.get("status").equals(l.get("status"))
          && before.path("spec").equals(l.path("spec")), "written only when changed: " + l);
    }
    assertEquals(Set.of("ClusterQueue", "Cohort", "LocalQueue", "Workload"), kinds);

    // Every object is written at time 0 or when it first changes; workloads in their LocalQueue's namespace.
    JsonNode lq = lines.get(0);
    assertEquals("{\"time\":0,\"kind\":\"LocalQueue\",\"namespace\":\"ns-a\",\"name\":\"main\",\"status\":"
        + "{\"pendingWorkloads\":0,\"reservingWorkloads\":0,\"admittedWorkloads\":0}}", lq.toString());
    JsonNode cohort = lines.stream().filter(l -> l.get("kind").asText().equals("Cohort")).findFirst().orElseThrow();
    assertEquals("{\"time\":0,\"kind\":\"Cohort\",\"name\":\"pool\",\"status\":{}}", cohort.toString());

    JsonNode admitted = find(lines, "Workload", "b-fill-1", 0);
    assertEquals("ns-b", admitted.get("namespace").asText());
    assertEquals(120_000, admitted.get("time").asLong());
    assertTrue(admitted.get("spec").get("active").asBoolean());
    JsonNode status = admitted.get("status");
    assertEquals(Set.of("admission", "conditions"), fields(status));
    JsonNode c = status.get("conditions").get(0);
    assertEquals("{\"type\":\"QuotaReserved\",\"status\":\"True\",\"lastTransitionTime\":\"1970-01-01T00:02:00Z\","
        + "\"reason\":\"QuotaReserved\",\"message\":\"Quota reserved in ClusterQueue team-b\"}", c.toString());
    assertEquals("{\"clusterQueue\":\"team-b\",\"podSetAssignments\":[{\"name\":\"main\",\"flavors\":{\"cpu\":\"a100\","
        + "\"nvidia.com/gpu\":\"a100\"},\"resourceUsage\":{\"cpu\":\"500m\",\"nvidia.com/gpu\":\"8\"},\"count\":1}]}",
        status.get("admission").toString());

    // A ClusterQueue borrowing: reservation per flavor and covered resource, with Kueue's quantities.
    JsonNode cq = lines.stream().filter(l -> l.get("kind").asText().equals("ClusterQueue")
        && l.get("name").asText().equals("team-b") && l.get("time").asLong() == 480_000).findFirst().orElseThrow();
    JsonNode s = cq.get("status");
    assertEquals(Set.of("conditions", "flavorsReservation", "flavorsUsage", "pendingWorkloads", "reservingWorkloads",
        "admittedWorkloads"), fields(s));
    assertEquals("[{\"name\":\"a100\",\"resources\":[{\"name\":\"cpu\",\"total\":\"2\",\"borrowed\":\"0\"},"
        + "{\"name\":\"nvidia.com/gpu\",\"total\":\"32\",\"borrowed\":\"16\"}]}]", s.get("flavorsReservation").toString());
    assertEquals(s.get("flavorsReservation"), s.get("flavorsUsage"));
    assertEquals("{\"type\":\"Active\",\"status\":\"True\",\"lastTransitionTime\":\"1970-01-01T00:00:00Z\","
        + "\"reason\":\"Ready\",\"message\":\"Can admit new workloads\"}", s.get("conditions").get(0).toString());
    assertEquals(4, s.get("reservingWorkloads").asInt());

    // The stopped ClusterQueue.
    JsonNode stopped = lines.get(lines.size() - 1);
    assertEquals(7 * 3_600_000L, stopped.get("time").asLong());
    assertEquals("{\"type\":\"Active\",\"status\":\"False\",\"lastTransitionTime\":\"1970-01-01T07:00:00Z\","
        + "\"reason\":\"Stopped\",\"message\":\"Can't admit new workloads: is stopped.\"}",
        stopped.get("status").get("conditions").get(0).toString());
  }

  /** The {@code n}-th record of an object. */
  private static JsonNode find(List<JsonNode> lines, String kind, String name, int n) {
    return lines.stream().filter(l -> l.get("kind").asText().equals(kind) && l.get("name").asText().equals(name))
        .skip(n).findFirst().orElseThrow();
  }

  @Test
  void acrossPreemptionAndRequeue_theVictimsStatusFollowsKueue() throws Exception {
    List<JsonNode> lines = record(CYCLES);
    List<JsonNode> victim = lines.stream().filter(l -> l.get("name").asText().equals("b-fill-4")).toList();
    // admitted, evicted (still holding quota), requeued, readmitted, finished
    assertEquals(5, victim.size(), victim.toString());
    JsonNode evicting = victim.get(1).get("status");
    assertEquals(2_400_000, victim.get(1).get("time").asLong());
    assertTrue(evicting.has("admission"), "quota is held while the pods terminate");
    assertEquals("Preempted", condition(evicting, "Evicted").get("reason").asText());
    JsonNode requeued = victim.get(2).get("status");
    assertEquals(2_430_000, victim.get(2).get("time").asLong());
    assertFalse(requeued.has("admission"));
    assertEquals("NoReservation", condition(requeued, "Admitted").get("reason").asText());
    assertEquals(1950, requeued.get("accumulatedPastExecutionTimeSeconds").asInt());
    JsonNode readmitted = victim.get(3).get("status");
    assertEquals("False", condition(readmitted, "Evicted").get("status").asText());
    assertEquals("QuotaReserved", condition(readmitted, "Preempted").get("reason").asText());
    assertEquals(1950, readmitted.get("accumulatedPastExecutionTimeSeconds").asInt(), "kept across admissions");
    assertEquals("Succeeded", condition(victim.get(4).get("status"), "Finished").get("reason").asText());
    assertTrue(victim.get(4).get("status").has("admission"), "a finished workload keeps its admission");
  }

  private static JsonNode condition(JsonNode status, String type) {
    for (Iterator<JsonNode> it = status.get("conditions").elements(); it.hasNext(); ) {
      JsonNode c = it.next();
      if (c.get("type").asText().equals(type)) {
        return c;
      }
    }
    throw new AssertionError("no " + type + " in " + status);
  }

  @Test
  void queueCounts_agreeWithTheSummary_afterDaysOfPreemptions() throws Exception {
    List<JsonNode> lines = record("examples/reclaim.yaml", "--set", "horizon=30h");
    Map<String, JsonNode> last = new HashMap<>();
    lines.stream().filter(l -> l.get("kind").asText().equals("ClusterQueue"))
        .forEach(l -> last.put(l.get("name").asText(), l.get("status")));
    JsonNode summary = JSON.readTree(tmp.resolve("out/summary.json").toFile());
    int preempted = 0;
    for (JsonNode q : summary.get("queues")) {
      JsonNode s = last.get(q.get("name").asText());
      assertEquals(q.get("pending_at_end").asInt(), s.get("pendingWorkloads").asInt(), q.toString());
      assertEquals(q.get("admitted_at_end").asInt() + q.get("running_at_end").asInt(),
          s.get("reservingWorkloads").asInt(), q.toString());
      preempted += q.get("preempted").asInt();
    }
    assertTrue(preempted >= 5, "the run crosses preemptions and requeues: " + preempted);
    assertTrue(last.values().stream().anyMatch(s -> s.get("pendingWorkloads").asInt() > 0), "cut mid-run");
  }

  @Test
  void admissionChecks_showRetriesAsKueueResetsThem() throws Exception {
    List<JsonNode> lines = record("examples/autoscaled-gpus.yaml",
        "--set", "admissionChecks.provisioning.provisioningRequest.failureProbability=0.5");
    List<JsonNode> checks = new ArrayList<>();
    lines.stream().filter(l -> l.get("status").has("admissionChecks"))
        .forEach(l -> l.get("status").get("admissionChecks").forEach(checks::add));
    assertTrue(checks.stream().allMatch(c -> c.get("name").asText().equals("provisioning")
        && Set.of("name", "state", "lastTransitionTime", "message", "retryCount").containsAll(fields(c))), "shape");
    // Kueue resetChecksOnEviction: a Retry turns Pending with its previous state and counts in retryCount.
    assertTrue(checks.stream().anyMatch(c -> c.toString().matches("\\{\"name\":\"provisioning\",\"state\":\"Pending\","
        + "\"lastTransitionTime\":\"[^\"]+\",\"message\":\"Reset to Pending after eviction\\. Previously: Retry\","
        + "\"retryCount\":2}")), "a second retry");
    assertTrue(checks.stream().anyMatch(c -> c.get("state").asText().equals("Ready")
        && c.path("retryCount").asInt() == 1), "provisioned after one retry, the count kept");
  }

  @Test
  void podsReadyTimeouts_countInRequeueState_untilTheWorkloadIsDeactivated() throws Exception {
    List<JsonNode> lines = record("src/test/resources/status/pods-ready-backoff.yaml");
    List<JsonNode> wl = lines.stream().filter(l -> l.get("kind").asText().equals("Workload")).toList();
    JsonNode evicted = wl.get(1).get("status");
    assertEquals("{\"count\":1,\"requeueAt\":\"1970-01-01T00:07:00Z\"}", evicted.get("requeueState").toString());
    JsonNode readmitted = null; // the first record after the eviction with Admitted=True again
    for (int i = 2; i < wl.size() && readmitted == null; i++) {
      for (JsonNode c : wl.get(i).get("status").path("conditions")) {
        if (c.get("type").asText().equals("Admitted") && c.get("status").asText().equals("True")) {
          readmitted = wl.get(i).get("status");
        }
      }
    }
    assertNotNull(readmitted, "readmitted after the backoff");
    assertEquals("{\"count\":1}", readmitted.get("requeueState").toString(), "requeueAt cleared after the backoff");
    JsonNode last = wl.get(wl.size() - 1);
    assertFalse(last.get("spec").get("active").asBoolean());
    assertFalse(last.get("status").has("requeueState"), "Kueue clears it when it deactivates");
    Cli.Result r = Cli.run("check", "src/test/resources/status/pods-ready-backoff.yaml");
    assertEquals(0, r.exit(), r.out() + r.err());
  }

  @Test
  void fairSharing_givesWeightedShares() throws Exception {
    List<JsonNode> lines = record("examples/reclaim-fair-sharing.yaml", "--set", "horizon=6h");
    assertTrue(lines.stream().filter(l -> l.get("kind").asText().equals("ClusterQueue"))
        .allMatch(l -> l.get("status").get("fairSharing").get("weightedShare").isIntegralNumber()));
    assertTrue(lines.stream().filter(l -> l.get("kind").asText().equals("Cohort"))
        .allMatch(l -> l.get("status").get("fairSharing").has("weightedShare")));
    assertTrue(lines.stream().anyMatch(l -> l.get("kind").asText().equals("ClusterQueue")
        && l.get("status").get("fairSharing").get("weightedShare").asLong() > 0), "someone borrows");
  }

  @Test
  void atExpectations_holdAcrossManyCycles() {
    Cli.Result r = Cli.run("check", CYCLES);
    assertEquals(0, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("  PASS at(41m, workload(ns-b/b-fill-4).accumulatedPastExecutionTimeSeconds) == "
        + "1950: measured 1950 at 41m (recorded at 40m30s)"), r.out());
    assertFalse(r.out().contains("FAIL"), r.out());
  }

  @Test
  void badPaths_areLocatedErrors_andUnknownRecordsAreRefused() {
    Cli.Result bad = Cli.run("run", "src/test/resources/status/bad-paths.yaml", "--out", tmp.resolve("o").toString());
    assertEquals(2, bad.exit());
    assertEquals(List.of(
        "src/test/resources/status/bad-paths.yaml:4:57: unknown field 'reasn' of 'Evicted' (known: type, status, "
            + "reason, message, lastTransitionTime)",
        "src/test/resources/status/bad-paths.yaml:5:26: unknown ClusterQueue 'team-c' (known: team-a, team-b)"),
        bad.errLines());
    assertFalse(Files.exists(tmp.resolve("o")));

    Cli.Result unknown = Cli.run("run", CYCLES, "--record", "status,metrics", "--out", tmp.resolve("u").toString());
    assertEquals(2, unknown.exit());
    assertEquals("batchsim: unknown record 'metrics' for --record (known: status)", unknown.err().strip());

    Cli.Result volcano = Cli.run("run", "examples/kueue-vs-volcano.yaml", "--set", "scheduler=volcano", "--record",
        "status", "--out", tmp.resolve("v").toString());
    assertEquals(2, volcano.exit());
    assertTrue(volcano.err().contains("records Kueue's objects; this scenario runs under Volcano"), volcano.err());
  }
}
