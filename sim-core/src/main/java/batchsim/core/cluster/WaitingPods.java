package batchsim.core.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeSet;

/**
 * The workloads whose pods wait for a node, in line (the order they started waiting: one that waits again
 * before it was done keeps its place), filed by what their unbound pods need: request, allowed pools and
 * node requirements. A retry pass visits, in line order, only owners with a pod whose group may still fit:
 * a group whose pods fit no node now, or one whose pod found no node earlier in the pass, is skipped whole
 * (capacity only shrinks during a pass, so such pods cannot bind later in it). Owners with pods pinned by
 * TAS are visited every pass. So a pass costs O(groups + owners visited), not O(owners waiting).
 */
final class WaitingPods {
  private static final Comparator<Waiter> IN_LINE = Comparator.comparingLong((Waiter w) -> w.seq);

  /** One waiting owner and its unbound pods, counted per podSet. */
  static final class Waiter {
    final Object owner;
    final PodBinder.Pods pods;
    /** Place in line. */
    final long seq;
    /** Per podSet, its unbound pods not pinned by TAS. */
    private final int[] free;
    /** Unbound pods pinned by TAS. */
    private int pinned;

    private Waiter(Object owner, PodBinder.Pods pods, long seq) {
      this.owner = owner;
      this.pods = pods;
      this.seq = seq;
      this.free = new int[pods.requests.length];
    }
  }

  /** A pod's request and allowed pools: with no node edited, pods of equal shape fit or fail alike. */
  private static final class Shape {
    final long[] request;
    final boolean[] pools;
    final int hash;
    long failedPass;

    Shape(long[] request, boolean[] pools) {
      this.request = request;
      this.pools = pools;
      this.hash = 31 * Arrays.hashCode(request) + Arrays.hashCode(pools);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Shape s && s.hash == hash && Arrays.equals(s.request, request)
          && Arrays.equals(s.pools, pools);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private record Key(Shape shape, NodeRequirements needs) {}

  /** Waiting owners with unbound pods of one shape and node requirements (or pinned ones), in line. */
  static final class Group {
    /** Null for the group of owners with pinned pods, which never fails. */
    private final Shape shape;
    private final NodeRequirements needs;
    private final TreeSet<Waiter> owners = new TreeSet<>(IN_LINE);
    /** Once a node is edited, pods fail alike only if they also ask the same of a node. */
    private long failedPass;
    /** In a pass: the next owner of this group to visit. */
    private Waiter head;

    private Group(Shape shape, NodeRequirements needs) {
      this.shape = shape;
      this.needs = needs;
    }
  }

  private final ClusterState cluster;
  private final Map<Object, Waiter> byOwner = new HashMap<>();
  private final Map<Shape, Shape> shapes = new HashMap<>();
  private final Map<Key, Group> groups = new HashMap<>();
  private final Group pinnedGroup = new Group(null, null);
  /** The groups that have owners (their order never matters: see {@link #next}). */
  private final List<Group> active = new ArrayList<>();
  private long nextSeq;

  // The pass under way.
  private long pass;
  private boolean coarse;
  private final PriorityQueue<Group> heads = new PriorityQueue<>(Comparator.comparingLong((Group g) -> g.head.seq));
  private Group current;
  private long lastSeq;

  WaitingPods(ClusterState cluster) {
    this.cluster = cluster;
  }

  boolean isEmpty() {
    return byOwner.isEmpty();
  }

  /** Queues the owner at the end of the line, or refiles it where it stands if it is already waiting. */
  void put(Object owner, PodBinder.Pods pods) {
    Waiter w = byOwner.get(owner);
    if (w != null && w.pods != pods) {
      remove(owner);
      w = add(owner, pods, w.seq);
    } else if (w == null) {
      w = add(owner, pods, nextSeq++);
    }
    refresh(w);
  }

  private Waiter add(Object owner, PodBinder.Pods pods, long seq) {
    Waiter w = new Waiter(owner, pods, seq);
    byOwner.put(owner, w);
    if (pods.groups == null) {
      pods.groups = new Group[pods.requests.length];
      for (int ps = 0; ps < pods.groups.length; ps++) {
        Shape shape = shapes.computeIfAbsent(new Shape(pods.requests[ps], pods.poolOk[ps]), s -> s);
        pods.groups[ps] = groups.computeIfAbsent(new Key(shape, pods.needs[ps]), k -> new Group(k.shape(), k.needs()));
      }
    }
    return w;
  }

  /** Pod i of the owner lost its node: the owner waits (see {@link #put}). */
  void unbound(Object owner, PodBinder.Pods pods, int i) {
    Waiter w = byOwner.get(owner);
    if (w == null || w.pods != pods) {
      put(owner, pods);
    } else if (pinned(pods, i)) {
      if (w.pinned++ == 0) {
        join(w, pinnedGroup);
      }
    } else {
      int ps = pods.podSetOfPod[i];
      if (w.free[ps]++ == 0) {
        join(w, pods.groups[ps]);
      }
    }
  }

  void remove(Object owner) {
    Waiter w = byOwner.remove(owner);
    if (w != null) {
      for (Group g : w.pods.groups) {
        leave(w, g);
      }
      leave(w, pinnedGroup);
    }
  }

  /** The owner's pods were bound or pinned: refiles it by the pods still unbound (no-op when not waiting). */
  void refresh(Object owner) {
    Waiter w = byOwner.get(owner);
    if (w != null) {
      refresh(w);
    }
  }

  void refresh(Waiter w) {
    PodBinder.Pods pods = w.pods;
    Arrays.fill(w.free, 0);
    w.pinned = 0;
    for (int i = 0; i < pods.nodeOfPod.length; i++) {
      if (pods.nodeOfPod[i] < 0) {
        if (pinned(pods, i)) {
          w.pinned++;
        } else {
          w.free[pods.podSetOfPod[i]]++;
        }
      }
    }
    for (int ps = 0; ps < w.free.length; ps++) {
      if (w.free[ps] > 0) {
        join(w, pods.groups[ps]);
      } else if (!wants(w, pods.groups[ps])) {
        leave(w, pods.groups[ps]);
      }
    }
    if (w.pinned > 0) {
      join(w, pinnedGroup);
    } else {
      leave(w, pinnedGroup);
    }
  }

  private static boolean pinned(PodBinder.Pods pods, int i) {
    return pods.pinned != null && pods.pinned[i] != null;
  }

  /** Whether some podSet of the owner with unbound free pods is of group g (podSets may share one). */
  private static boolean wants(Waiter w, Group g) {
    for (int ps = 0; ps < w.free.length; ps++) {
      if (w.free[ps] > 0 && w.pods.groups[ps] == g) {
        return true;
      }
    }
    return false;
  }

  private void join(Waiter w, Group g) {
    if (g.owners.isEmpty()) {
      active.add(g);
    }
    g.owners.add(w);
  }

  private void leave(Waiter w, Group g) {
    if (g.owners.remove(w) && g.owners.isEmpty()) {
      active.remove(g);
    }
  }

  // ------------------------------------------------------------------ a retry pass

  /** Starts a pass: groups whose pods fit no node now sit it out. */
  void startPass() {
    pass++;
    coarse = cluster.edited.isEmpty();
    heads.clear();
    current = null;
    lastSeq = -1;
    for (Group g : active) {
      if (g != pinnedGroup && (failed(g) || !mayFit(g))) {
        fail(g);
      } else {
        g.head = g.owners.first();
        heads.add(g);
      }
    }
  }

  /**
   * The next owner in line, in this pass, with a pod that may still bind, or null at the end. The groups'
   * lines are merged by place in line, so owners come in line order, each once (an owner in several groups
   * heads each of them in turn); ties between groups are the same owner, so the groups' order never matters.
   */
  Waiter next() {
    if (current != null) {
      advance(current);
      current = null;
    }
    for (Group g; (g = heads.poll()) != null; ) {
      if (failed(g)) {
        continue;
      }
      if (g.head.seq > lastSeq) {
        current = g;
        lastSeq = g.head.seq;
        return g.head;
      }
      advance(g);
    }
    return null;
  }

  private void advance(Group g) {
    if (!failed(g)) {
      Waiter n = g.owners.higher(g.head); // by place in line: works though the head may have left
      if (n != null) {
        g.head = n;
        heads.add(g);
      }
    }
  }

  /** Whether the podSet's free pods found no node earlier in this pass. */
  boolean failed(PodBinder.Pods pods, int ps) {
    return failed(pods.groups[ps]);
  }

  /** The podSet's pod found no node: its group, or with no node edited its whole shape, is done this pass. */
  void fail(PodBinder.Pods pods, int ps) {
    fail(pods.groups[ps]);
  }

  private boolean failed(Group g) {
    return g.shape != null && (coarse ? g.shape.failedPass : g.failedPass) == pass;
  }

  private void fail(Group g) {
    if (coarse) {
      g.shape.failedPass = pass;
    } else {
      g.failedPass = pass;
    }
  }

  /** False when no node can take one pod of the group now (a pool's largest free amounts, edited nodes). */
  private boolean mayFit(Group g) {
    long[] req = g.shape.request;
    for (Node n : cluster.edited) {
      if (n.schedulable() && n.fits(req) && g.needs.matches(n)) {
        return true;
      }
    }
    for (int p = 0; p < g.shape.pools.length; p++) {
      if (g.shape.pools[p] && cluster.freeIndex.get(p).mayFit(req)) {
        return true;
      }
    }
    return false;
  }
}
