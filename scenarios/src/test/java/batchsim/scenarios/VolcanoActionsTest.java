package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.WorkloadAction;
import batchsim.core.sim.Runs;
import batchsim.core.world.TimelineError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Volcano's queue and PodGroup timeline actions, bound from YAML and run. */
class VolcanoActionsTest {
  /** Two 8-cpu nodes; queues team-a and team-b (proportion), LocalQueues ns/a and ns/b. */
  private static final String BASE = String.join("\n",
      "name: t",
      "cluster:",
      "  nodePools:",
      "    - {name: cpu, count: 2, allocatable: {cpu: 8, memory: 32Gi}}",
      "resourceFlavors:",
      "  - {name: default}",
      "clusterQueues:",
      "  - name: team-a",
      "    resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: 16}]}]}]",
      "  - name: team-b",
      "    resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: 16}]}]}]",
      "localQueues:",
      "  - {namespace: ns, name: a, clusterQueue: team-a}",
      "  - {namespace: ns, name: b, clusterQueue: team-b}",
      "");
  private static final String VOLCANO = "scheduler: volcano\n"
      + "volcano: {terminationGracePeriod: 1m, queues: [{name: team-a}, {name: team-b}]}\n";

  private static String job(String name, String queue, String at, int pods, int cpu) {
    return "    - {name: " + name + ", queue: " + queue + ", at: " + at + ", runtime: 1h, podSets: [{count: " + pods
        + ", requests: {cpu: " + cpu + "}}]}\n";
  }

  private static LoadedScenario load(String yaml) throws Exception {
    return ScenarioLoader.parse("t.yaml", BASE + yaml);
  }

  private static Map<String, WorkloadRecord> run(LoadedScenario s) {
    return records(Runs.run(s.spec(), s.volcano(), true));
  }

  private static Map<String, WorkloadRecord> records(RunResult r) {
    Map<String, WorkloadRecord> out = new TreeMap<>();
    r.workloads().forEach(w -> out.put(w.id(), w));
    return out;
  }

  private static List<String> problems(String yaml) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> load(yaml));
    return e.problems().stream().map(Object::toString).toList();
  }

  private static String refusal(String yaml) {
    LoadedScenario s = assertDoesNotThrowLoad(yaml);
    return assertThrows(TimelineError.class, () -> Runs.run(s.spec(), s.volcano(), true)).getMessage();
  }

  private static LoadedScenario assertDoesNotThrowLoad(String yaml) {
    try {
      return load(yaml);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void closeVolcanoQueue_runningJobsGoOn_newJobsAreRefused_pendingOnesWaitUntilItOpens() throws Exception {
    Map<String, WorkloadRecord> w = run(load(VOLCANO + "workloads:\n  list:\n"
        + job("big", "ns/a", "0s", 2, 8) + job("waits", "ns/a", "1m", 1, 8) + job("late", "ns/a", "20m", 1, 1)
        + "events:\n  - {at: 10m, closeVolcanoQueue: {name: team-a}}\n"
        + "  - {at: 3h, openVolcanoQueue: {name: team-a}}\n"));
    assertEquals("FINISHED", w.get("big").state(), "a closed queue's running jobs continue");
    assertEquals("REJECTED", w.get("late").state());
    // Volcano's job webhook (admit_job.go): the queue still has PodGroups, so it is Closing.
    assertEquals("can only submit job to queue with state `Open`, queue `team-a` status is `Closing`",
        w.get("late").lastMessage());
    // Pending while closed (enqueue and allocate want an Open queue), admitted once it opens.
    assertTrue(w.get("waits").quotaReservedMs() >= 3 * 3_600_000L, w.get("waits").toString());
    assertEquals("FINISHED", w.get("waits").state());
  }

  @Test
  void closeVolcanoQueue_withoutPodGroups_isClosed_andTheRootCannotBeClosed() throws Exception {
    Map<String, WorkloadRecord> w = run(load(VOLCANO + "workloads:\n  list:\n" + job("late", "ns/b", "20m", 1, 1)
        + "events:\n  - {at: 10m, closeVolcanoQueue: {name: team-b}}\n"));
    assertEquals("can only submit job to queue with state `Open`, queue `team-b` status is `Closed`",
        w.get("late").lastMessage());
    assertEquals("t.yaml:21:5: events[0]: at 10m: Root queue cannot be closed",
        refusal(VOLCANO + "workloads:\n  list:\n" + job("x", "ns/a", "0s", 1, 1)
            + "events:\n  - {at: 10m, closeVolcanoQueue: {name: root}}\n"));
  }

  @Test
  void deleteVolcanoQueue_itsPendingJobsAreNoLongerScheduled_andNewOnesFindNoQueue() throws Exception {
    Map<String, WorkloadRecord> w = run(load(VOLCANO + "horizon: 6h\nworkloads:\n  list:\n"
        + job("big", "ns/a", "0s", 2, 8) + job("stuck", "ns/b", "1m", 1, 8) + job("late", "ns/b", "20m", 1, 1)
        + "events:\n  - {at: 10m, deleteVolcanoQueue: {name: team-b}}\n"));
    assertEquals("PENDING", w.get("stuck").state(), "the scheduler ignores a job whose queue does not exist");
    assertEquals("unable to find job queue: queues.scheduling.volcano.sh \"team-b\" not found",
        w.get("late").lastMessage());
    assertTrue(refusal(VOLCANO + "workloads:\n  list:\n" + job("x", "ns/a", "0s", 1, 1)
        + "events:\n  - {at: 10m, deleteVolcanoQueue: {name: default}}\n").endsWith("`default` queue can not be deleted"));
    assertTrue(refusal(VOLCANO + "workloads:\n  list:\n" + job("x", "ns/a", "0s", 1, 1)
        + "events:\n  - {at: 10m, deleteVolcanoQueue: {name: team-b}}\n"
        + "  - {at: 20m, closeVolcanoQueue: {name: team-b}}\n")
        .endsWith("at 20m: Volcano queue team-b does not exist: it was deleted at 10m"));
  }

  @Test
  void createVolcanoQueue_takesJobsFromThen_andItsResourcesAreCheckedAsVolcanosWebhookDoes() throws Exception {
    String yaml = "scheduler: volcano\nvolcano: {queueFor: {ns/b: team-c}, queues: [{name: team-a}]}\n"
        + "workloads:\n  list:\n" + job("early", "ns/b", "10m", 1, 1) + job("later", "ns/b", "40m", 1, 1)
        + "events:\n  - {at: 30m, createVolcanoQueue: {name: team-c, weight: 2, capability: {cpu: 4}}}\n";
    Map<String, WorkloadRecord> w = run(load(yaml));
    assertEquals("REJECTED", w.get("early").state());
    assertEquals("FINISHED", w.get("later").state());
    assertEquals("team-c", w.get("later").clusterQueue());
    // A guarantee needs a deserved of that resource (validateResourceQuantityOfQueue).
    assertTrue(refusal(VOLCANO + "workloads:\n  list:\n" + job("x", "ns/a", "0s", 1, 1)
        + "events:\n  - {at: 1m, createVolcanoQueue: {name: g, guarantee: {cpu: 2}}}\n")
        .endsWith("requestBody.spec.deserved.cpu: Invalid value: \"<nil>\": deserved[cpu] must be >= guarantee[cpu]=2"));
    assertTrue(refusal(VOLCANO + "workloads:\n  list:\n" + job("x", "ns/a", "0s", 1, 1)
        + "events:\n  - {at: 1m, createVolcanoQueue: {name: team-a}}\n")
        .endsWith("queues.scheduling.volcano.sh \"team-a\" already exists"));
  }

  @Test
  void createVolcanoQueue_hierarchical_childCapabilityWithinTheAncestors() {
    String h = "scheduler: volcano\nvolcano: {plugins: capacity, hierarchical: true, queues: ["
        + "{name: org, capability: {cpu: 8}, deserved: {cpu: 8}}, {name: team-a, parent: org}, {name: team-b}]}\n"
        + "workloads:\n  list:\n" + job("x", "ns/a", "0s", 1, 1) + "events:\n";
    assertTrue(refusal(h + "  - {at: 1m, createVolcanoQueue: {name: c, parent: org, capability: {cpu: 16}}}\n")
        .endsWith("queue c capability[cpu]=16 exceeds its ancestor's capability=8"), "child above its parent");
    assertTrue(refusal(h + "  - {at: 1m, createVolcanoQueue: {name: c, parent: org, deserved: {cpu: 9}}}\n")
        .contains("validation failed: sum of children's deserved (cpu 9000.00, memory 0.00) exceeds parent's"
            + " deserved limit (cpu 8000.00, memory 0.00)"));
    assertTrue(refusal(h + "  - {at: 1m, createVolcanoQueue: {name: c, parent: team-a}}\n")
        .endsWith("queue team-a cannot be the parent queue of queue c because it has allocated Pods: 1"));
    assertTrue(refusal(h + "  - {at: 1m, deleteVolcanoQueue: {name: org}}\n")
        .endsWith("queue org can not be deleted because it has 1 child queues: team-a"));
  }

  @Test
  void updateVolcanoQueue_aRaisedCapabilityAdmitsWhatWaited() throws Exception {
    String yaml = "scheduler: volcano\nvolcano: {queues: [{name: team-a, capability: {cpu: 4}}, {name: team-b}]}\n"
        + "workloads:\n  list:\n" + job("w", "ns/a", "0s", 2, 4)
        + "events:\n  - {at: 1h, updateVolcanoQueue: {name: team-a, capability: {cpu: 16}}}\n";
    WorkloadRecord w = run(load(yaml)).get("w");
    assertTrue(w.quotaReservedMs() >= 3_600_000L && w.quotaReservedMs() < 3_700_000L, w.toString());
    assertTrue(refusal(yaml.replace("capability: {cpu: 16}", "deserved: {cpu: 8}"))
        .endsWith("deserved[cpu]=8 must be <= capability[cpu]=4"));
  }

  @Test
  void deletePodGroup_theJobControllerCreatesItAgain_runningPodsGoOn() throws Exception {
    String jobs = "workloads:\n  list:\n" + job("w", "ns/a", "0s", 2, 4);
    WorkloadRecord before = run(load(VOLCANO + jobs)).get("w");
    WorkloadRecord after = run(load(VOLCANO + jobs + "events:\n  - {at: 10m, deletePodGroup: {workload: w}}\n")).get("w");
    assertEquals(before.finishedMs(), after.finishedMs(), "the pods are the job's: they run on");
    assertEquals("FINISHED", after.state());
    assertTrue(refusal(VOLCANO + jobs + "events:\n  - {at: 2h, deletePodGroup: {workload: w}}\n")
        .endsWith("workload w does not exist: it finished at 1h"));
    assertTrue(refusal(VOLCANO + jobs + "events:\n  - {at: 1m, deletePodGroup: {workload: nope}}\n")
        .endsWith("workload nope does not exist: it has not arrived yet"));
  }

  @Test
  void deleteWorkload_podsTerminateForTheGracePeriod_thenTheWaitingJobRuns() throws Exception {
    LoadedScenario s = load(VOLCANO + "workloads:\n  list:\n" + job("big", "ns/a", "0s", 2, 8)
        + job("next", "ns/b", "1m", 2, 8));
    SimulationSpec spec = withEvents(s.spec(), List.of(new TimelineEvent(600_000, null, Long.MAX_VALUE,
        new WorkloadAction.Delete("big"), "test")));
    Map<String, WorkloadRecord> w = records(Runs.run(spec, s.volcano(), true));
    assertEquals("DELETED", w.get("big").state());
    long reserved = w.get("next").quotaReservedMs();
    assertTrue(reserved >= 660_000 && reserved < 700_000, "after the 1m grace period: " + reserved);
    assertEquals("FINISHED", w.get("next").state());
  }

  @Test
  void volcanoActions_boundWithTheirLocation_andRefusedUnderKueue() {
    assertEquals(List.of("t.yaml:18:40: events[0].closeVolcanoQueue.name: unknown Volcano queue 'nope' (known: "
        + "default, root, team-a, team-b)"),
        problems(VOLCANO + "events:\n  - {at: 1m, closeVolcanoQueue: {name: nope}}\n"));
    assertEquals(List.of("t.yaml:18:52: events[0].createVolcanoQueue.parent: a parent needs hierarchical: true"
        + " (with plugins: capacity)"),
        problems(VOLCANO + "events:\n  - {at: 1m, createVolcanoQueue: {name: c, parent: team-a}}\n"));
    assertEquals(List.of("t.yaml:17:14: events[0].deleteVolcanoQueue: deleteVolcanoQueue is a Volcano action: it"
        + " needs scheduler: volcano"),
        problems("volcano: {queues: [{name: team-a}, {name: team-b}]}\nevents:\n  - {at: 1m, deleteVolcanoQueue: {name: team-a}}\n"));
  }

  private static SimulationSpec withEvents(SimulationSpec s, List<TimelineEvent> events) {
    List<TimelineEvent> all = new ArrayList<>(s.timeline());
    all.addAll(events);
    return new SimulationSpec(s.name(), s.seed(), s.horizonMs(), s.resources(), s.nodePools(), s.flavors(),
        s.cohorts(), s.clusterQueues(), s.localQueues(), s.priorityClasses(), s.kueue(), s.podScheduling(),
        s.workloadSources(), s.sampleIntervalMs(), all, s.failureModels(), s.serving(), s.topologies(),
        s.admissionChecks(), s.autoscaling());
  }
}
