package batchsim.core.volcano;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.Resources;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Drives the engine the way the simulation will: a session every schedule period, binds completing after
 * the bind delay, workloads running once all their pods run, evicted pods coming back. The hierarchical
 * invariant (and node capacity) must hold after every session, every workload must finish, and two runs
 * with the same seed must be identical.
 */
class SimulatedRunTest {
  private static final int ARRIVE = 0;
  private static final int SESSION = 1;
  private static final int BOUND = 2;
  private static final int FINISH = 3;
  private static final int GONE = 4;

  private record Ev(long t, int kind, long seq, Object what, int gen) {}

  private static final class Run implements VolcanoHost {
    final PriorityQueue<Ev> events = new PriorityQueue<>((a, b) -> a.t != b.t ? Long.compare(a.t, b.t)
        : a.kind != b.kind ? Integer.compare(a.kind, b.kind) : Long.compare(a.seq, b.seq));
    final Map<PodGroup, Long> runtime = new HashMap<>();
    final Map<PodGroup, Integer> generation = new HashMap<>();
    final StringBuilder trace = new StringBuilder();
    long now;
    long seq;
    int finished;
    int sessions;
    int evictions;
    VolcanoEngine engine;

    void at(long t, int kind, Object what, int gen) {
      events.add(new Ev(t, kind, seq++, what, gen));
    }

    @Override
    public void onBind(Pod pod, String node) {
      at(now + engine.config().bindDelayMs(), BOUND, pod, 0);
    }

    @Override
    public void onEvict(Pod pod, String node, String reason) {
      PodGroup pg = pod.podGroup();
      generation.merge(pg, 1, Integer::sum); // the workload is disrupted; its finish is void
      at(now + 2_000, GONE, pod, 0);
    }

    void maybeStart(PodGroup pg) {
      for (Pod p : pg.pods()) {
        if (p.state() != PodState.RUNNING) {
          return;
        }
      }
      at(now + runtime.get(pg), FINISH, pg, generation.getOrDefault(pg, 0));
    }
  }

  /**
   * @param strict also require the strict reservation bound after every session (runs without evictions)
   */
  private static String run(long seed, VolcanoConfig config, List<VolcanoQueueSpec> queues, List<String> leaves,
      boolean strict) {
    Run r = new Run();
    List<VolcanoNodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      nodes.add(Fixture.node("n" + i, 8, 32, 110));
    }
    VolcanoEngine e = new VolcanoEngine(Fixture.RES, config, queues, nodes, () -> r.now).checked(true);
    e.setHost(r);
    r.engine = e;
    SplittableRandom rnd = new SplittableRandom(seed);
    long t = 0;
    int total = 250;
    for (int i = 0; i < total; i++) {
      t += 1 + (long) (-Math.log(1 - rnd.nextDouble()) * 1500);
      int pods = 1 + rnd.nextInt(4);
      Resources per = Fixture.req(1 + rnd.nextInt(3), 1 + rnd.nextInt(6));
      WorkloadSpec w = new WorkloadSpec(String.format("ns/w%03d", i), null, null, t, rnd.nextInt(3), null,
          List.of(PodSetSpec.of("worker", pods, per)), 5_000 + rnd.nextInt(40_000));
      r.at(t, ARRIVE, new Object[] {w, leaves.get(rnd.nextInt(leaves.size()))}, 0);
    }
    r.at(0, SESSION, null, 0);
    long horizon = 3_600_000;
    while (!r.events.isEmpty()) {
      Ev ev = r.events.poll();
      if (ev.t > horizon) {
        break;
      }
      r.now = ev.t;
      switch (ev.kind) {
        case ARRIVE -> {
          Object[] a = (Object[]) ev.what;
          WorkloadSpec w = (WorkloadSpec) a[0];
          PodGroup pg = e.submit(w, (String) a[1]);
          r.runtime.put(pg, w.runtimeMs());
        }
        case SESSION -> {
          SessionOutcome o = e.runSession();
          r.sessions++;
          List<HierarchyInvariant.Violation> v = e.checkInvariants();
          assertEquals(List.of(), v, "after session " + o.session() + " at " + r.now);
          if (strict) {
            assertEquals(List.of(), e.checkReservations(), "after session " + o.session() + " at " + r.now);
          }
          r.evictions += o.evictions().size();
          if (o.changed()) {
            r.trace.append(r.now).append(' ').append(Fixture.binds(o)).append(Fixture.evictions(o)).append('\n');
          }
          if (r.finished < total) {
            r.at(r.now + config.schedulePeriodMs(), SESSION, null, 0);
          }
        }
        case BOUND -> {
          Pod p = (Pod) ev.what;
          e.bindComplete(p);
          r.maybeStart(p.podGroup());
        }
        case GONE -> e.evictionComplete((Pod) ev.what);
        case FINISH -> {
          PodGroup pg = (PodGroup) ev.what;
          if (ev.gen != r.generation.getOrDefault(pg, 0) || e.podGroup(pg.id()) == null) {
            break;
          }
          for (Pod p : pg.pods()) {
            e.podFinished(p, true);
          }
          e.deletePodGroup(pg);
          r.finished++;
          r.trace.append(r.now).append(" done ").append(pg.id()).append('\n');
        }
        default -> throw new AssertionError();
      }
    }
    StringBuilder left = new StringBuilder();
    for (PodGroup pg : e.podGroups()) {
      left.append(pg.id()).append(' ').append(pg.queueName()).append(' ').append(pg.phase()).append(' ')
          .append(pg.spec().minResources().amounts()).append(' ').append(pg.lastCondition()).append('\n');
    }
    assertEquals(total, r.finished, "every workload finishes; left:\n" + left);
    return r.evictions + " evictions\n" + r.trace;
  }

  static List<VolcanoQueueSpec> tree() {
    return List.of(VolcanoQueueSpec.of("root"),
        VolcanoQueueSpec.of("org-a").withCapability(Fixture.rl(24, 96)).withDeserved(Fixture.rl(32, 128)),
        VolcanoQueueSpec.of("team-1").withParent("org-a").withDeserved(Fixture.rl(16, 64)),
        VolcanoQueueSpec.of("team-2").withParent("org-a").withCapability(Fixture.rl(12, 48))
            .withDeserved(Fixture.rl(16, 64)),
        VolcanoQueueSpec.of("org-b").withCapability(Fixture.rl(40, 160)).withDeserved(Fixture.rl(32, 128)),
        VolcanoQueueSpec.of("team-3").withParent("org-b").withDeserved(Fixture.rl(32, 128)));
  }

  @Test
  void hierarchicalCapacityRunKeepsTheInvariantAndIsDeterministic() {
    VolcanoConfig c = VolcanoConfig.capacity(true).withBindDelayMs(300);
    List<String> leaves = List.of("team-1", "team-2", "team-3");
    String a = run(42, c, tree(), leaves, false);
    String b = run(42, c, tree(), leaves, false);
    assertEquals(a, b);
    assertTrue(a.lines().count() > 250, a);
    assertTrue(!a.startsWith("0 evictions"), "the run exercises reclaim");
  }

  @Test
  void withoutEvictionsEnqueuedPlusAllocatedWorkStaysWithinEveryLevel() {
    VolcanoConfig reclaiming = VolcanoConfig.capacity(true);
    VolcanoConfig c = new VolcanoConfig(List.of("enqueue", "allocate", "backfill"), null, reclaiming.tiers(), 1000, 300);
    String a = run(42, c, tree(), List.of("team-1", "team-2", "team-3"), true);
    assertTrue(a.startsWith("0 evictions"), a.lines().findFirst().orElse(""));
  }

  @Test
  void defaultProportionRunKeepsTheInvariant() {
    VolcanoConfig c = new VolcanoConfig(List.of("enqueue", "allocate", "backfill", "reclaim"), null,
        VolcanoConfig.defaults().tiers(), 1000, 100);
    List<VolcanoQueueSpec> qs = List.of(VolcanoQueueSpec.of("a").withWeight(2).withCapability(Fixture.rl(30, 120)),
        VolcanoQueueSpec.of("b"));
    String a = run(7, c, qs, List.of("a", "b"), false);
    assertEquals(a, run(7, c, qs, List.of("a", "b"), false));
  }

  @Test
  void reclaimingCapacityRunKeepsTheInvariant() {
    // Flat capacity with deserved shares and reclaim: evictions happen, evicted pods come back.
    VolcanoConfig c = VolcanoConfig.capacity(false).withBindDelayMs(500);
    List<VolcanoQueueSpec> qs = List.of(VolcanoQueueSpec.of("x").withDeserved(Fixture.rl(32, 128)),
        VolcanoQueueSpec.of("y").withDeserved(Fixture.rl(32, 128)).withCapability(Fixture.rl(48, 192)));
    String a = run(3, c, qs, List.of("x", "y", "y"), false);
    assertEquals(a, run(3, c, qs, List.of("x", "y", "y"), false));
  }
}
