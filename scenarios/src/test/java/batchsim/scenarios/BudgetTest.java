package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resource bombs are refused from the scenario's numbers, before any work and fast. */
class BudgetTest {
  /** A small valid scenario; the tests swap one line of it for a bomb. */
  static final String BASE = """
      name: bomb
      horizon: 7d
      cluster:
        nodePools:
          - {name: cpu, count: 4, allocatable: {cpu: 32, memory: 128Gi}}
      resourceFlavors:
        - {name: std}
      clusterQueues:
        - name: cq
          resourceGroups:
            - coveredResources: [cpu, memory]
              flavors:
                - name: std
                  resources: [{name: cpu, nominalQuota: 96}, {name: memory, nominalQuota: 384Gi}]
      localQueues:
        - {name: main, clusterQueue: cq}
      workloads:
        classes:
          - name: w
            queue: main
            arrival: {poisson: {rate: 1/h}}
            runtime: 1h
            podSets: [{requests: {cpu: 1}}]
      """;

  static final String LONG = BASE.replace("horizon: 7d", "horizon: 365000d");

  private static String refused(String yaml) {
    ScenarioException e = assertTimeoutPreemptively(Duration.ofSeconds(2),
        () -> assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("bomb.yaml", yaml)));
    assertEquals(1, e.problems().size(), e.problems().toString());
    return e.problems().get(0).toString();
  }

  @Test
  void nodePool_countOf1e9_refusedAtTheCount() {
    assertEquals("bomb.yaml:5:26: cluster.nodePools[0].count: the run would make 1,000,000,000 nodes, more than the "
        + "limit of 200,000; lower node pool counts, addNodes counts or repetitions, or autoscaling max, or raise the "
        + "limit with --limits nodes=1000000000", refused(BASE.replace("count: 4,", "count: 1000000000,")));
  }

  @Test
  void addNodes_hugeCount_refusedAtTheEventsCount() {
    assertEquals("bomb.yaml:25:43: events[0].addNodes.count: the run would make 1,000,000,004 nodes, more than the "
        + "limit of 200,000 (1,000,000,000 of them from here); lower node pool counts, addNodes counts or repetitions, "
        + "or autoscaling max, or raise the limit with --limits nodes=1000000004",
        refused(BASE + "events:\n  - {at: 1h, addNodes: {pool: cpu, count: 1000000000}}\n"));
  }

  @Test
  void sampleInterval_1msOver1000Years_refusedAtSampleInterval() {
    assertEquals("bomb.yaml:3:17: sampleInterval: the run would record 31,536,000,000,000 sample rows (one every 1ms "
        + "over 365000d), more than the limit of 5,000,000; lengthen sampleInterval or shorten the horizon, or raise "
        + "the limit with --limits samples=31536000000000",
        refused(LONG.replace("horizon: 365000d", "horizon: 365000d\nsampleInterval: 1ms")));
  }

  @Test
  void poisson_1e9PerSecondOverALongHorizon_refusedAtTheArrival() {
    assertEquals("bomb.yaml:21:16: workloads.classes[0].arrival: the run would make 3.2e+19 workloads, more than the "
        + "limit of 20,000,000; lower the rate or count, or shorten the window, or raise the limit with --limits "
        + "workloads=off", refused(LONG.replace("rate: 1/h", "rate: 1000000000/s")));
  }

  @Test
  void every_1msUntil1000Years_refusedAtEvery() {
    assertEquals("bomb.yaml:25:21: events[0].every: the run would make 31,536,000,000,001 timeline events, more than "
        + "the limit of 10,000,000; lengthen every, or bring until or the horizon closer, or raise the limit with "
        + "--limits events=31536000000001", refused(LONG + "events:\n"
        + "  - {at: 0s, every: 1ms, until: 365000d, setQuota: {clusterQueue: cq, flavor: std, resource: cpu, "
        + "nominalQuota: 96}}\n"));
  }

  @Test
  void count_boundsAFastClass_soItIsNotRefused() throws Exception {
    ScenarioLoader.parse("bomb.yaml", LONG.replace("rate: 1/h", "rate: 1000000000/s")
        .replace("      runtime: 1h", "      count: 1000\n      runtime: 1h"));
  }

  @Test
  void memory_overTheHeapShare_refusedWithTheFigures(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("big.yaml");
    Files.writeString(f, BASE.replace("count: 4,", "count: 100000,"));
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f, List.of(),
        RunLimits.parse(List.of("memory=1%"))));
    String m = e.problems().get(0).toString();
    assertEquals(f + ":1:1: the run would need about 391 MiB of heap (100,000 nodes × 4 KiB, 168 workloads × 1 KiB, "
        + "0 sample rows × 512 B), more than 1% of the ", m.substring(0, m.indexOf("of the ") + 7));
    assertTrue(m.endsWith("give Java more heap (BATCHSIM_JAVA_OPTS=-Xmx...), or raise the share with --limits "
        + "memory=" + expectedShare() + "%"), m);
  }

  /** The share of this JVM's heap that 100,000 nodes and 168 workloads need, rounded up. */
  private static int expectedShare() {
    double need = 100_000.0 * Budget.NODE_BYTES + 168.0 * Budget.WORKLOAD_BYTES;
    return Math.min(100, (int) Math.ceil(need * 100 / Runtime.getRuntime().maxMemory()));
  }

  @Test
  void limits_raised_letTheScenarioThrough(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("wide.yaml");
    Files.writeString(f, BASE.replace("count: 4,", "count: 300000,"));
    assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f, List.of()));
    assertEquals(300_000, ScenarioLoader.load(f, List.of(), RunLimits.parse(List.of("nodes=5e5,memory=off")))
        .spec().nodePools().get(0).count());
  }

  @Test
  void parse_badLimits_sayWhatIsAccepted() {
    assertEquals("--limits cores=4: expected KEY=VALUE with KEY one of nodes, events, samples, workloads, memory",
        assertThrows(IllegalArgumentException.class, () -> RunLimits.parse(List.of("cores=4"))).getMessage());
    assertEquals("--limits nodes=1.5: expected a whole number of at least 1 (e.g. 500000 or 2e7), or off",
        assertThrows(IllegalArgumentException.class, () -> RunLimits.parse(List.of("nodes=1.5"))).getMessage());
    assertEquals("--limits memory=120%: expected a percentage of the maximum heap from 1% to 100%, or off",
        assertThrows(IllegalArgumentException.class, () -> RunLimits.parse(List.of("memory=120%"))).getMessage());
    assertEquals("nodes=500000,events=20000000,samples=5000000,workloads=off,memory=90%",
        RunLimits.parse(List.of("nodes=500000,events=2e7", "workloads=off,memory=90%")).toString());
  }
}
