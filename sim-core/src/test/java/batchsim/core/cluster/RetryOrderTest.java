package batchsim.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.ScoringStrategy;
import batchsim.core.model.Taint;
import batchsim.core.model.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * PodBinder.retryWaiting, which visits only the waiting owners that may fit, binds exactly as the
 * straightforward rule does: every waiting owner, in the order it started waiting, tries all its pending pods.
 * Two identical clusters go through the same random admissions, releases, node failures, drains, edits
 * (labels, NoSchedule and NoExecute taints) and TAS pins; one retries with retryWaiting, the other with the
 * reference, and every bind (owner, node, order) must match.
 */
class RetryOrderTest {
  static final ResourceSpace RES = ResourceSpace.of(List.of("cpu", "memory", "pods", "nvidia.com/gpu"));
  static final Taint GPU = new Taint("nvidia.com/gpu", "true", "NoSchedule");
  static final Taint MAINT = new Taint("maintenance", "true", "NoExecute");

  private static NodePoolSpec pool(String name, int count, long cpu, long gpu, List<Taint> taints) {
    TreeMap<String, String> labels = new TreeMap<>();
    labels.put("pool", name);
    return new NodePoolSpec(name, count, labels, taints, Resources.wrap(new long[] {cpu, 1L << 37, 8, gpu}));
  }

  private static ResourceFlavorSpec flavor(String name, Map<String, String> labels, List<Toleration> tolerations) {
    return new ResourceFlavorSpec(name, new TreeMap<>(labels), List.of(), tolerations, null);
  }

  static final List<ResourceFlavorSpec> FLAVORS = List.of(
      flavor("a", Map.of("pool", "a"), List.of()),
      flavor("b", Map.of("pool", "b"), List.of(new Toleration("nvidia.com/gpu", "Exists", null, "NoSchedule"))),
      flavor("b-bare", Map.of("pool", "b"), List.of()),
      flavor("any", Map.of(), List.of()));

  /** One cluster and its binder; {@code log} records every bind and release with its node, in order. */
  private static final class World {
    final ClusterState cluster;
    final PodBinder binder;
    final List<String> log = new ArrayList<>();
    final Map<String, PodBinder.Pods> live = new LinkedHashMap<>();

    World(List<NodePoolSpec> pools, ScoringStrategy scoring) {
      cluster = new ClusterState(RES, pools, scoring);
      binder = new PodBinder(cluster, FLAVORS, (owner, pool, req, sign) -> {});
      binder.setNodeListener((owner, node, req, sign, pinned) -> log.add(owner + (sign > 0 ? "+" : "-") + node
          + (pinned ? "*" : "")));
    }

    Node node(int k) {
      return cluster.nodes().get(k);
    }
  }

  /** The reference: the waiting owners in the order they started waiting, each tried whole on a retry. */
  private static final class Reference {
    final World world;
    final LinkedHashMap<String, PodBinder.Pods> waiting = new LinkedHashMap<>();

    Reference(World world) {
      this.world = world;
    }

    boolean bind(String owner, PodBinder.Pods pods) {
      boolean all = world.binder.bind(owner, pods);
      if (all) {
        waiting.remove(owner);
      } else {
        waiting.put(owner, pods);
      }
      return all;
    }

    List<Object> retry() {
      List<Object> done = new ArrayList<>();
      for (String owner : new ArrayList<>(waiting.keySet())) {
        if (bind(owner, waiting.get(owner))) {
          done.add(owner);
        }
      }
      return done;
    }

    List<Object> lost(List<Object> owners) {
      for (Object o : owners) {
        waiting.put((String) o, world.live.get(o));
      }
      return owners;
    }
  }

  @Test
  void retryWaiting_bindsInTheOrderOfTryingEveryWaitingOwner() {
    for (int seed = 0; seed < 300; seed++) {
      run(seed);
    }
  }

  private void run(int seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<NodePoolSpec> pools = List.of(
        pool("a", 1 + rnd.nextInt(4), 8_000, 0, List.of()),
        pool("b", 1 + rnd.nextInt(3), 16_000, 4, List.of(GPU)),
        pool("c", rnd.nextInt(3), 8_000, 0, List.of()));
    ScoringStrategy scoring = rnd.nextBoolean() ? ScoringStrategy.LEAST_ALLOCATED : ScoringStrategy.MOST_ALLOCATED;
    World fast = new World(pools, scoring);
    World slow = new World(pools, scoring);
    Reference ref = new Reference(slow);
    int owners = 0;
    for (int step = 0; step < 250; step++) {
      String at = "seed " + seed + " step " + step;
      int nodes = fast.cluster.nodes().size();
      int op = rnd.nextInt(20);
      if (op < 6) { // a workload is admitted; some are TAS-pinned
        String o = "w" + owners++;
        List<PodSetSpec> podSets = new ArrayList<>();
        int[] counts = new int[1 + rnd.nextInt(2)];
        int[][] flavorOf = new int[counts.length][];
        for (int ps = 0; ps < counts.length; ps++) {
          counts[ps] = 1 + rnd.nextInt(4);
          int f = rnd.nextInt(FLAVORS.size());
          long gpu = f == 1 && rnd.nextBoolean() ? 1 + rnd.nextInt(2) : 0;
          long cpu = 1_000L << rnd.nextInt(4);
          TreeMap<String, String> selector = new TreeMap<>();
          if (rnd.nextInt(5) == 0) {
            selector.put("zone", "x");
          }
          List<Toleration> tol = rnd.nextInt(4) == 0 ? List.of(new Toleration("maintenance", "Exists", null, null))
              : List.of();
          podSets.add(new PodSetSpec("ps" + ps, counts[ps], -1, Resources.wrap(new long[] {cpu, 0, 0, gpu}),
              selector, tol));
          flavorOf[ps] = new int[] {f, -1, -1, gpu > 0 ? f : -1};
        }
        PodBinder.Pods pf = fast.binder.pods(podSets, counts, flavorOf);
        PodBinder.Pods ps = slow.binder.pods(podSets, counts, flavorOf);
        fast.live.put(o, pf);
        slow.live.put(o, ps);
        if (rnd.nextInt(4) == 0) {
          int[][] pins = pins(rnd, pf.total(), nodes);
          fast.binder.pin(o, pf, pins);
          slow.binder.pin(o, ps, pins);
        }
        assertEquals(ref.bind(o, ps), fast.binder.bind(o, pf), at);
      } else if (op < 9 && !fast.live.isEmpty()) { // one finishes or is evicted
        String o = pick(rnd, fast.live);
        if (rnd.nextInt(3) == 0) {
          fast.binder.cancel(o);
          slow.binder.cancel(o);
          ref.waiting.remove(o);
        } else {
          fast.binder.release(o, fast.live.remove(o));
          slow.binder.release(o, slow.live.remove(o));
          ref.waiting.remove(o);
        }
      } else if (op < 10 && !fast.live.isEmpty()) { // TAS: its topology assignment moves
        String o = pick(rnd, fast.live);
        int[][] pins = pins(rnd, fast.live.get(o).total(), nodes);
        fast.binder.pin(o, fast.live.get(o), pins);
        slow.binder.pin(o, slow.live.get(o), pins);
        assertEquals(ref.bind(o, slow.live.get(o)), fast.binder.bind(o, fast.live.get(o)), at);
      } else if (op < 12) { // a node fails, is drained, leaves, or comes back
        int k = rnd.nextInt(nodes);
        switch (rnd.nextInt(5)) {
          case 0 -> assertEquals(ref.lost(slow.binder.failNode(slow.node(k))), fast.binder.failNode(fast.node(k)), at);
          case 1 -> assertEquals(ref.lost(slow.binder.cordonNode(slow.node(k), true)),
              fast.binder.cordonNode(fast.node(k), true), at);
          case 2 -> assertEquals(ref.lost(slow.binder.removeNode(slow.node(k))), fast.binder.removeNode(fast.node(k)),
              at);
          default -> {
            fast.binder.recoverNode(fast.node(k));
            slow.binder.recoverNode(slow.node(k));
            fast.binder.uncordonNode(fast.node(k));
            slow.binder.uncordonNode(slow.node(k));
          }
        }
      } else if (op < 13) { // a node's labels or taints are edited
        int k = rnd.nextInt(nodes);
        TreeMap<String, String> labels = new TreeMap<>(fast.node(k).labels());
        if (rnd.nextBoolean()) {
          labels.put("zone", "x");
        } else {
          labels.put("pool", List.of("a", "b", "c").get(rnd.nextInt(3)));
        }
        List<Taint> taints = List.<List<Taint>>of(List.of(), List.of(GPU), List.of(MAINT)).get(rnd.nextInt(3));
        assertEquals(ref.lost(slow.binder.edit(slow.node(k), labels, taints)),
            fast.binder.edit(fast.node(k), labels, taints), at);
      } else if (op < 14) {
        int p = rnd.nextInt(pools.size());
        fast.binder.addNodes(p, 1);
        slow.binder.addNodes(p, 1);
      } else { // capacity was released somewhere: retry
        assertEquals(ref.retry(), fast.binder.retryWaiting(), at);
      }
      assertEquals(slow.log, fast.log, at);
      assertEquals(slow.binder.hasWaiting(), fast.binder.hasWaiting(), at);
      assertTrue(fast.cluster.checkInvariants().isEmpty(), at);
    }
    for (String o : fast.live.keySet()) {
      assertEquals(slow.binder.placement(slow.live.get(o)), fast.binder.placement(fast.live.get(o)), "seed " + seed);
    }
  }

  /** Per pod: bind freely, or only to one to three random nodes. */
  private static int[][] pins(SplittableRandom rnd, int pods, int nodes) {
    int[][] pins = new int[pods][];
    for (int i = 0; i < pods; i++) {
      if (rnd.nextBoolean()) {
        pins[i] = rnd.ints(1 + rnd.nextInt(3), 0, nodes).toArray();
      }
    }
    return pins;
  }

  private static String pick(SplittableRandom rnd, Map<String, PodBinder.Pods> live) {
    return new ArrayList<>(live.keySet()).get(rnd.nextInt(live.size()));
  }
}
