package batchsim.core.volcano;

import static batchsim.core.volcano.Fixture.node;
import static batchsim.core.volcano.Fixture.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine's public surface: submitting workloads, host callbacks, lifecycle reports. */
class VolcanoEngineTest {
  static WorkloadSpec workload(String id, String queue, int pods, double cpu) {
    return new WorkloadSpec(id, null, queue, 0, 0, null, List.of(PodSetSpec.of("worker", pods, req(cpu, 1))), 1000);
  }

  @Test
  void submitMakesOneGangPerWorkload() {
    VolcanoEngine e = Fixture.engine(VolcanoConfig.defaults(), List.of(VolcanoQueueSpec.of("q")), node("n1", 8, 8, 10));
    PodGroup pg = e.submit(workload("ns/job", "q", 3, 2));
    assertEquals("q", pg.queueName());
    assertEquals(3, pg.spec().minMember());
    assertEquals(ResourceList.of("cpu", 6000L, "memory", 3L << 30), pg.spec().minResources());
    assertEquals(List.of("ns/job-worker-0", "ns/job-worker-1", "ns/job-worker-2"),
        pg.pods().stream().map(Pod::id).toList());
    assertEquals(PodGroupPhase.PENDING, pg.phase());
  }

  @Test
  void hierarchicalQueuesTakeJobsInLeavesOnly() {
    VolcanoEngine e = Fixture.engine(VolcanoConfig.capacity(true),
        List.of(VolcanoQueueSpec.of("org"), VolcanoQueueSpec.of("team").withParent("org")), node("n1", 8, 8, 10));
    assertTrue(e.isLeafQueue("team"));
    assertTrue(!e.isLeafQueue("org") && !e.isLeafQueue("root"));
    assertThrows(IllegalArgumentException.class, () -> e.submit(workload("ns/a", "org", 1, 1)));
    assertThrows(IllegalArgumentException.class, () -> e.submit(workload("ns/b", "nope", 1, 1)));
    e.submit(workload("ns/c", "team", 1, 1));
  }

  @Test
  void hostHearsOfBindsEvictionsAndPhases() {
    List<String> heard = new ArrayList<>();
    VolcanoEngine e = Fixture.engine(VolcanoConfig.defaults(), List.of(VolcanoQueueSpec.of("q")), node("n1", 8, 8, 10));
    e.setHost(new VolcanoHost() {
      @Override
      public void onBind(Pod pod, String node) {
        heard.add("bind " + pod.id() + " " + node);
      }

      @Override
      public void onEvict(Pod pod, String node, String reason) {
        heard.add("evict " + pod.id());
      }

      @Override
      public void onPhaseChange(PodGroup pg, PodGroupPhase from, PodGroupPhase to) {
        heard.add(pg.id() + " " + from + "->" + to);
      }
    });
    PodGroup pg = e.submit(workload("ns/j", "q", 1, 1));
    e.runSession();
    assertEquals(List.of("bind ns/j-worker-0 n1", "ns/j Pending->Inqueue"), heard);
    Pod p = pg.pods().get(0);
    assertEquals(PodState.BINDING, p.state());
    e.bindComplete(p);
    e.runSession();
    assertEquals("ns/j Inqueue->Running", heard.get(2));
    e.podFinished(p, true);
    e.runSession();
    assertEquals("ns/j Running->Completed", heard.get(3));
    e.deletePodGroup(pg);
    assertEquals(List.of(), e.podGroups());
  }

  @Test
  void notReadyNodesAreLeftOut() {
    VolcanoEngine e = Fixture.engine(VolcanoConfig.defaults(), List.of(VolcanoQueueSpec.of("q")),
        node("n1", 8, 8, 10), node("n2", 8, 8, 10));
    e.setNodeReady("n1", false);
    e.submit(workload("ns/j", "q", 1, 1));
    assertEquals(List.of("ns/j-worker-0->n2"), Fixture.binds(e.runSession()));
  }

  @Test
  void resourcesVolcanoWouldNotSeeAreReported() {
    ResourceSpace res = ResourceSpace.of(List.of("cpu", "memory", "gpu", "example.com/fpga"));
    VolcanoEngine e = new VolcanoEngine(res, VolcanoConfig.defaults(), List.of(VolcanoQueueSpec.of("q")),
        List.of(new VolcanoNodeSpec("n1", null, null, Resources.wrap(new long[] {8000, 8L << 30, 8, 2}))), () -> 0L);
    assertEquals(java.util.Set.of("gpu"), e.ignoredResources(), "unprefixed names are not Kubernetes resources");
  }

  @Test
  void unknownPluginsAndBadArgumentsFailAtConstruction() {
    VolcanoConfig bad = new VolcanoConfig(List.of("allocate"), null, List.of(List.of(PluginSpec.defaults("binpack"))),
        1000, 0);
    assertThrows(IllegalArgumentException.class,
        () -> Fixture.engine(bad, List.of(VolcanoQueueSpec.of("q")), node("n1", 1, 1, 1)));
    VolcanoConfig level = new VolcanoConfig(List.of("allocate"), null,
        List.of(List.of(PluginSpec.defaults("capacity").withArgument("ancestorReclaimLevel", "x"))), 1000, 0);
    assertThrows(IllegalArgumentException.class,
        () -> Fixture.engine(level, List.of(VolcanoQueueSpec.of("q")), node("n1", 1, 1, 1)));
  }
}
