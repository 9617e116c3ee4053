package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The hierarchical-capacity invariants, computed from the engine's state independently of the plugins'
 * bookkeeping. A queue's effective capability is its own; in hierarchical mode, dimensions it leaves unset
 * are inherited from its parent's effective capability (as capacity's checkHierarchicalQueue does). The pods
 * dimension is not a queue quota in Volcano (its quota checks skip it) and is not checked on queues.
 *
 * <ul>
 *   <li><b>allocated</b> — always: the requests of bound and binding pods of the jobs in a queue's subtree
 *       stay within its capability, at every level of the tree (allocation checks the leaf and every
 *       ancestor, issue #3932);
 *   <li><b>admission</b> — always: when enqueue admits a PodGroup, Volcano's enqueue accounting
 *       ({@code allocated − elastic + inqueue}, i.e. per job {@code min(allocated, minResources)} plus its
 *       reservation) stays within capability at the leaf and every ancestor, on the dimensions the group
 *       asks for (issue #4118 / PR #4119). Audited at each admission when the engine runs
 *       {@linkplain VolcanoEngine#checked checked};
 *   <li><b>node</b> — always: pods bound to a node (binding, running or releasing) fit its allocatable;
 *   <li><b>enqueued+allocated</b> — the same accounting as a state invariant ({@link #reservations}). It holds
 *       while admitted groups keep their pods; Volcano lets a Running group that lost pods (evicted, failed)
 *       take them back in allocate without a new enqueue check, after its reservation lapsed and the headroom
 *       was admitted to another group, so it can be exceeded transiently there. Not part of {@link #check}.
 * </ul>
 *
 * Queue checks apply only when a capacity or proportion plugin enforces quotas (allocatable for the
 * allocation bound, jobEnqueued with the enqueue action configured for the admission bounds).
 */
public final class HierarchyInvariant {
  /** One broken bound: {@code used} exceeds {@code limit} (base units) of {@code resource}. */
  public record Violation(String kind, String queueOrNode, String resource, long used, long limit) {
    @Override
    public String toString() {
      return kind + " at " + queueOrNode + " on " + resource + ": " + used + " > " + limit;
    }
  }

  private HierarchyInvariant() {}

  static boolean allocationEnforced(VolcanoEngine e) {
    return enforcedBy(e, ExtensionPoint.ALLOCATABLE);
  }

  static boolean admissionEnforced(VolcanoEngine e) {
    return enforcedBy(e, ExtensionPoint.JOB_ENQUEUED) && e.configuredActions.contains("enqueue");
  }

  private static boolean enforcedBy(VolcanoEngine e, ExtensionPoint p) {
    for (List<PluginSpec> tier : e.config.tiers()) {
      for (PluginSpec s : tier) {
        if ((s.name().equals(CapacityPlugin.NAME) || s.name().equals(ProportionPlugin.NAME)) && s.isEnabled(p)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The always-on invariants: allocated at every level, node capacity, and the admission audit. */
  static List<Violation> check(VolcanoEngine e) {
    List<Violation> out = new ArrayList<>();
    if (allocationEnforced(e)) {
      Accounting a = new Accounting(e);
      for (Queue q : e.queueList()) {
        if (!e.capabilityLowered.contains(q.name)) {
          compare(out, "allocated", q.name, a.allocated.get(q), a.caps.get(q), e.dims, null);
          continue;
        }
        // Volcano evicts nothing when a capability is lowered: the queue may stay above it until its work drains.
        List<Violation> above = new ArrayList<>();
        compare(above, "allocated", q.name, a.allocated.get(q), a.caps.get(q), e.dims, null);
        if (above.isEmpty()) {
          e.capabilityLowered.remove(q.name);
        }
      }
    }
    nodes(e, out);
    out.addAll(e.admissionViolations);
    return out;
  }

  /** The strict state form of the enqueue bound (see the class comment for when Volcano exceeds it). */
  static List<Violation> reservations(VolcanoEngine e) {
    List<Violation> out = new ArrayList<>();
    if (admissionEnforced(e)) {
      Accounting a = new Accounting(e);
      for (Queue q : e.queueList()) {
        compare(out, "enqueued+allocated", q.name, a.admitted.get(q), a.caps.get(q), e.dims, null);
      }
    }
    return out;
  }

  private static void nodes(VolcanoEngine e, List<Violation> out) {
    Dims dims = e.dims;
    for (Node n : e.nodeList()) {
      Res used = new Res(dims.size());
      for (Pod p : n.pods.values()) {
        used.add(p.request);
      }
      for (int i = 0; i < dims.size(); i++) {
        if (used.get(i) > n.allocatable.get(i) + Res.MIN_RESOURCE / 2) {
          out.add(new Violation("node", n.name, dims.name(i), dims.toBase(i, used.get(i)),
              dims.toBase(i, n.allocatable.get(i))));
        }
      }
    }
  }

  /** Adds a violation for each dimension (all, or those {@code only} asks for) where used exceeds cap. */
  static void compare(List<Violation> out, String kind, String queue, Res used, Res cap, Dims dims, Res only) {
    if (used == null || cap == null) {
      return;
    }
    for (int i = 0; i < dims.size(); i++) {
      if (i == dims.pods || !cap.has(i) || cap.get(i) >= Res.INF / 2) {
        continue;
      }
      if (only != null && !(only.has(i) && only.get(i) > 0)) {
        continue;
      }
      if (used.get(i) > cap.get(i) + Res.MIN_RESOURCE / 2) {
        out.add(new Violation(kind, queue, dims.name(i), dims.toBase(i, used.get(i)), dims.toBase(i, cap.get(i))));
      }
    }
  }

  /** The queues whose bounds a job's work counts against: its own, plus every ancestor in hierarchical mode. */
  static List<Queue> chain(VolcanoEngine e, Queue leaf) {
    List<Queue> chain = new ArrayList<>();
    chain.add(leaf);
    if (e.config.hierarchical()) {
      Set<Queue> seen = new HashSet<>(chain);
      for (Queue q = parent(e, leaf); q != null && seen.add(q); q = parent(e, q)) {
        chain.add(q);
      }
    }
    return chain;
  }

  private static Queue parent(VolcanoEngine e, Queue q) {
    String p = q.parentName();
    return p == null ? null : e.queueMap().get(p);
  }

  /** Volcano's enqueue accounting of one job: min(allocated, minResources) plus its inqueue reservation. */
  static Res admittedWork(JobInfo job, Dims dims) {
    Res adm = job.allocated.copy().sub(job.elastic());
    if (job.reservesInqueue()) {
      adm.add(job.inqueueResource(dims));
    }
    return adm;
  }

  /** Per queue (with its subtree in hierarchical mode): effective capability, allocated and admitted work. */
  static final class Accounting {
    final Map<Queue, Res> caps = new LinkedHashMap<>();
    final Map<Queue, Res> allocated = new HashMap<>();
    final Map<Queue, Res> admitted = new HashMap<>();

    Accounting(VolcanoEngine e) {
      Dims dims = e.dims;
      boolean hierarchical = e.config.hierarchical();
      for (Queue q : e.queueList()) {
        caps.put(q, effective(e, q, hierarchical, dims, new HashSet<>()));
      }
      for (PodGroup pg : e.podGroupList()) {
        if (!e.scheduled(pg)) {
          continue; // Volcano's scheduler does not see it
        }
        JobInfo job = new JobInfo(pg, dims.pods, dims.size());
        for (Pod p : pg.pods) {
          job.addTask(new TaskInfo(p, job));
        }
        Res adm = admittedWork(job, dims);
        for (Queue q : chain(e, pg.queue)) {
          allocated.computeIfAbsent(q, k -> new Res(dims.size())).add(job.allocated);
          admitted.computeIfAbsent(q, k -> new Res(dims.size())).add(adm);
        }
      }
    }
  }

  private static Res effective(VolcanoEngine e, Queue q, boolean hierarchical, Dims dims, Set<Queue> seen) {
    Res own = q.spec.capability().isEmpty() ? new Res(dims.size()) : dims.fromList(q.spec.capability());
    Res cap = new Res(dims.size());
    cap.v[Dims.CPU] = own.get(Dims.CPU) > 0 ? own.get(Dims.CPU) : Res.INF;
    cap.v[Dims.MEMORY] = own.get(Dims.MEMORY) > 0 ? own.get(Dims.MEMORY) : Res.INF;
    for (int i = 2; i < dims.size(); i++) {
      if (own.has(i)) {
        cap.setScalar(i, own.get(i));
      }
    }
    Queue p = hierarchical ? parent(e, q) : null;
    if (p != null && seen.add(q)) {
      Res pc = effective(e, p, true, dims, seen);
      if (cap.v[Dims.CPU] >= Res.INF) {
        cap.v[Dims.CPU] = pc.v[Dims.CPU];
      }
      if (cap.v[Dims.MEMORY] >= Res.INF) {
        cap.v[Dims.MEMORY] = pc.v[Dims.MEMORY];
      }
      for (int i = 2; i < dims.size(); i++) {
        if (!cap.has(i) && pc.has(i)) {
          cap.setScalar(i, pc.get(i));
        }
      }
    }
    return cap;
  }
}
