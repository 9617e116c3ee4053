package batchsim.core.cluster;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceFlavorSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A small kube-scheduler: binds the pods of admitted workloads to nodes, one pod at a time, in order.
 *
 * <p>Filter: the node must carry the labels of every flavor assigned to the pod (Kueue injects them as a
 * node selector) and the pod's own node selector, tolerate the node's hard taints with the pod's plus the
 * flavors' tolerations, and have room for the pod's requests (plus one "pods"). Score: LeastAllocated
 * (default) or MostAllocated over cpu and memory; ties go to the earlier node. The filter is worked out per
 * pool, whose nodes are identical, except for nodes whose labels or taints a timeline action edited: those
 * are filtered one by one (and a NoExecute taint evicts the pods there that do not tolerate it, as kube's
 * taint manager does). Pods that fit nowhere stay pending, and are retried in the order they started
 * waiting when capacity is freed ({@link WaitingPods} visits only those that may fit now). There is no gang
 * scheduling here: a workload may hold some nodes while others of its pods wait, exactly as with the
 * default scheduler.
 */
public final class PodBinder {
  private final ClusterState cluster;
  private final PoolFilters filters;
  private final WaitingPods waiting;
  /** Per podSet, the visit in which one of its pods found no node (its identical pods are skipped). */
  private long[] fullAt = new long[1];
  private long visit;
  private final BindListener listener;
  private NodeListener nodeListener;

  /** Told about every pod bound (+1) or released (-1), for allocation accounting. */
  public interface BindListener {
    void podBound(Object owner, int pool, long[] request, int sign);

    /** The node's last pod left (autoscalers give back empty nodes). */
    default void nodeEmptied(Node n) {}
  }

  /**
   * [TAS] Told the node of every pod bound (+1) or released (-1); {@code pinned}: the pod follows a
   * topology assignment (TAS usage), else it is Kueue's non-TAS usage on that node.
   */
  public interface NodeListener {
    void podPlaced(Object owner, Node node, long[] request, int sign, boolean pinned);
  }

  public void setNodeListener(NodeListener l) {
    this.nodeListener = l;
  }

  private void placed(Object owner, Node n, Pods pods, int i, int sign) {
    long[] request = pods.requests[pods.podSetOfPod[i]];
    listener.podBound(owner, n.pool, request, sign);
    if (nodeListener != null) {
      nodeListener.podPlaced(owner, n, request, sign,
          pods.pinnedByTopology && pods.pinned != null && pods.pinned[i] != null);
    }
  }

  public PodBinder(ClusterState cluster, List<ResourceFlavorSpec> flavors, BindListener listener) {
    this.cluster = cluster;
    this.filters = new PoolFilters(cluster, flavors);
    this.listener = listener;
    this.waiting = new WaitingPods(cluster);
  }

  /** A ResourceFlavor changed (created again or patched): pods admitted from now on get its labels and tolerations. */
  public void flavorChanged(int index, ResourceFlavorSpec spec) {
    filters.flavorChanged(index, spec);
  }

  /** The pods of one admitted workload and where each is bound (-1 = pending). */
  public static final class Pods {
    final long[][] requests; // per podSet, one pod's request incl. pods=1
    final int[] podSetOfPod;
    final int[] nodeOfPod;
    /** Per pod, its entry on the node it is bound to (null while pending). */
    final Node.PodRef[] refs;
    final boolean[][] poolOk; // per podSet: which pools pass the filter
    final NodeRequirements[] needs; // per podSet: the filter itself, for nodes edited mid-run
    /** [TAS] Per pod, the only nodes it may go to (its topology assignment); null entries bind freely. */
    int[][] pinned;
    /** The pins are a topology assignment's (TAS usage), not nodes a restored workload's pods ran on. */
    boolean pinnedByTopology;
    int bound;
    /** Per podSet, its group among the waiting pods (filed once, when the owner first waits). */
    WaitingPods.Group[] groups;

    Pods(long[][] requests, int[] podSetOfPod, boolean[][] poolOk, NodeRequirements[] needs) {
      this.requests = requests;
      this.podSetOfPod = podSetOfPod;
      this.nodeOfPod = new int[podSetOfPod.length];
      this.refs = new Node.PodRef[podSetOfPod.length];
      java.util.Arrays.fill(nodeOfPod, -1);
      this.poolOk = poolOk;
      this.needs = needs;
    }

    public boolean allBound() {
      return bound == nodeOfPod.length;
    }

    public int total() {
      return nodeOfPod.length;
    }
  }

  /**
   * Creates the pods of a workload: {@code counts[i]} pods of podSet i with {@code flavorOf[i][r]} the
   * flavor assigned to resource r.
   */
  public Pods pods(List<PodSetSpec> podSets, int[] counts, int[][] flavorOf) {
    int total = 0;
    for (int c : counts) {
      total += c;
    }
    int nRes = cluster.resources.size();
    long[][] req = new long[podSets.size()][];
    boolean[][] ok = new boolean[podSets.size()][];
    NodeRequirements[] needs = new NodeRequirements[podSets.size()];
    int[] psOfPod = new int[total];
    int k = 0;
    for (int i = 0; i < podSets.size(); i++) {
      PodSetSpec ps = podSets.get(i);
      req[i] = new long[nRes];
      for (int r = 0; r < nRes; r++) {
        req[i][r] = ps.perPod().get(r);
      }
      if (cluster.podsResource() >= 0) {
        req[i][cluster.podsResource()] = 1;
      }
      PoolFilters.Filter filter = filters.filter(ps, flavorOf[i]);
      needs[i] = filter.needs();
      ok[i] = filter.poolOk();
      for (int j = 0; j < counts[i]; j++) {
        psOfPod[k++] = i;
      }
    }
    return new Pods(req, psOfPod, ok, needs);
  }

  /** Binds as many pending pods of {@code owner} as fit now; queues it if some remain. Returns allBound. */
  public boolean bind(Object owner, Pods pods) {
    tryBind(owner, pods, false);
    if (pods.allBound()) {
      waiting.remove(owner);
      return true;
    }
    waiting.put(owner, pods);
    return false;
  }

  /**
   * Binds what fits. In a retry pass ({@code retry}), pods whose group found no node earlier in the pass
   * are skipped instead of searched again, and a pod that finds none fails its group for the pass.
   */
  private void tryBind(Object owner, Pods pods, boolean retry) {
    long v = ++visit;
    if (fullAt.length < pods.requests.length) {
      fullAt = new long[Math.max(pods.requests.length, 2 * fullAt.length)];
    }
    for (int i = 0; i < pods.nodeOfPod.length; i++) {
      int ps = pods.podSetOfPod[i];
      if (pods.nodeOfPod[i] >= 0 || fullAt[ps] == v) {
        continue;
      }
      if (retry && (pods.pinned == null || pods.pinned[i] == null) && waiting.failed(pods, ps)) {
        fullAt[ps] = v;
        continue;
      }
      if (pods.pinned != null && pods.pinned[i] != null) {
        // [TAS] Kueue's topology ungater gives the pod its assigned domain as node selector.
        Node n = bestPinned(pods.requests[ps], pods.pinned[i], pods.needs[ps]);
        if (n != null) {
          bindPod(owner, pods, i, n);
        }
        continue;
      }
      Node n = bestNode(pods.requests[ps], pods.poolOk[ps], pods.needs[ps]);
      if (n == null) {
        fullAt[ps] = v; // the podSet's identical pods would not fit either
        if (retry) {
          waiting.fail(pods, ps);
        }
        continue;
      }
      bindPod(owner, pods, i, n);
    }
  }

  private void bindPod(Object owner, Pods pods, int i, Node n) {
    long[] req = pods.requests[pods.podSetOfPod[i]];
    cluster.allocate(n, req, +1);
    pods.nodeOfPod[i] = n.index;
    pods.bound++;
    pods.refs[i] = new Node.PodRef(owner, pods, i);
    n.pods.add(pods.refs[i]);
    placed(owner, n, pods, i, +1);
  }

  /** [TAS] The best schedulable node among a pod's assigned ones that has room, or null. */
  private Node bestPinned(long[] req, int[] candidates, NodeRequirements needs) {
    Node best = null;
    double bestScore = 0;
    for (int idx : candidates) {
      Node n = cluster.nodes.get(idx);
      if (n.schedulable() && n.fits(req) && (!n.edited || needs.matches(n))) {
        double s = cluster.score(n, req);
        if (best == null || s > bestScore || (s == bestScore && n.index < best.index)) {
          best = n;
          bestScore = s;
        }
      }
    }
    return best;
  }

  /**
   * [TAS] Restricts each pod to the nodes of its assigned topology domain ({@code candidates[i]} node
   * indices, null = unrestricted); pods bound elsewhere are released first. Call {@link #bind} after.
   */
  public void pin(Object owner, Pods pods, int[][] candidates) {
    pin(owner, pods, candidates, true);
  }

  /** Drops pins that only placed an imported workload's running pods: a replacement pod binds freely. */
  public static void forgetSnapshotPins(Pods pods) {
    if (!pods.pinnedByTopology) {
      pods.pinned = null;
    }
  }

  /**
   * As {@link #pin(Object, Pods, int[][])}; {@code topology} false: the pins are the nodes an imported
   * workload's pods run on at the start, so their usage on those nodes is not TAS usage.
   */
  public void pin(Object owner, Pods pods, int[][] candidates, boolean topology) {
    pods.pinned = candidates;
    pods.pinnedByTopology = topology;
    for (int i = 0; i < pods.nodeOfPod.length; i++) {
      int n = pods.nodeOfPod[i];
      if (n >= 0 && candidates[i] != null && !contains(candidates[i], n)) {
        unbindPod(owner, pods, i);
      }
    }
    waiting.refresh(owner);
  }

  private static boolean contains(int[] a, int v) {
    for (int x : a) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }

  private void unbindPod(Object owner, Pods pods, int i) {
    Node node = cluster.nodes.get(pods.nodeOfPod[i]);
    long[] req = pods.requests[pods.podSetOfPod[i]];
    cluster.allocate(node, req, -1);
    pods.nodeOfPod[i] = -1;
    pods.bound--;
    node.pods.remove(pods.refs[i]);
    pods.refs[i] = null;
    placed(owner, node, pods, i, -1);
  }

  /** [TAS] The podSet of pod i and the node index it is bound to (-1 pending). */
  public static int podSetOf(Pods pods, int i) {
    return pods.podSetOfPod[i];
  }

  public static int nodeOf(Pods pods, int i) {
    return pods.nodeOfPod[i];
  }

  private Node bestNode(long[] req, boolean[] poolOk, NodeRequirements needs) {
    Node best = null;
    double bestScore = 0;
    for (Node n : cluster.edited) {
      if (n.schedulable() && n.fits(req) && needs.matches(n)) {
        double s = cluster.score(n, req);
        if (best == null || s > bestScore || (s == bestScore && n.index < best.index)) {
          best = n;
          bestScore = s;
        }
      }
    }
    for (int p = 0; p < poolOk.length; p++) {
      if (!poolOk[p]) {
        continue;
      }
      if (!cluster.freeIndex.get(p).mayFit(req)) {
        continue; // no node of this pool has room: skip the scan
      }
      for (Node n : cluster.poolIndex.get(p)) {
        if (n.fits(req)) {
          double s = cluster.score(n, req);
          if (best == null || s > bestScore || (s == bestScore && n.index < best.index)) {
            best = n;
            bestScore = s;
          }
          break;
        }
      }
    }
    return best;
  }

  /**
   * Retries waiting workloads in the order they started waiting; returns the owners whose pods are now all
   * bound. Only owners with a pod that may fit are visited (see {@link WaitingPods}).
   */
  public List<Object> retryWaiting() {
    List<Object> done = new ArrayList<>();
    waiting.startPass();
    for (WaitingPods.Waiter w; (w = waiting.next()) != null; ) {
      int before = w.pods.bound;
      tryBind(w.owner, w.pods, true);
      if (w.pods.allBound()) {
        done.add(w.owner);
        waiting.remove(w.owner);
      } else if (w.pods.bound != before) {
        waiting.refresh(w);
      }
    }
    return done;
  }

  /** Stops trying to bind the owner's pending pods (it is being evicted or deleted). */
  public void cancel(Object owner) {
    waiting.remove(owner);
  }

  public boolean hasWaiting() {
    return !waiting.isEmpty();
  }

  /** Unbinds every bound pod of the workload (it finished or was evicted) and forgets it. */
  public void release(Object owner, Pods pods) {
    waiting.remove(owner);
    for (int i = 0; i < pods.nodeOfPod.length; i++) {
      int n = pods.nodeOfPod[i];
      if (n >= 0) {
        Node node = cluster.nodes.get(n);
        cluster.allocate(node, pods.requests[pods.podSetOfPod[i]], -1);
        pods.nodeOfPod[i] = -1;
        node.pods.remove(pods.refs[i]);
        pods.refs[i] = null;
        if (node.pods.isEmpty()) {
          node.emptyEpoch++;
          listener.nodeEmptied(node);
        }
        placed(owner, node, pods, i, -1);
      }
    }
    pods.bound = 0;
  }

  /**
   * [elastic] A job's running pods pass from one owner to the next (Kueue workload slices: the new slice's pods
   * are the old slice's plus the added ones): bound pod i of {@code from} becomes pod i of {@code to} on the
   * same node when {@code to} has such a pod of the same pod set, else it is released. Call {@link #bind} for
   * the rest of {@code to}'s pods after.
   */
  public void handOver(Object from, Pods old, Object to, Pods fresh) {
    waiting.remove(from);
    for (int i = 0; i < old.nodeOfPod.length; i++) {
      int n = old.nodeOfPod[i];
      if (n < 0) {
        continue;
      }
      if (i >= fresh.nodeOfPod.length || fresh.podSetOfPod[i] != old.podSetOfPod[i] || fresh.nodeOfPod[i] >= 0) {
        unbindPod(from, old, i);
        Node node = cluster.nodes.get(n);
        if (node.pods.isEmpty()) {
          node.emptyEpoch++;
          listener.nodeEmptied(node);
        }
        continue;
      }
      Node node = cluster.nodes.get(n);
      node.pods.remove(old.refs[i]);
      old.refs[i] = null;
      old.nodeOfPod[i] = -1;
      old.bound--;
      placed(from, node, old, i, -1);
      fresh.nodeOfPod[i] = n;
      fresh.bound++;
      fresh.refs[i] = new Node.PodRef(to, fresh, i);
      node.pods.add(fresh.refs[i]);
      placed(to, node, fresh, i, +1);
    }
  }

  /**
   * The node stops running pods (failure, drain or removal): every pod bound there is unbound and its
   * owner queued to be bound again elsewhere. Returns the owners that lost pods, in binding order.
   */
  public List<Object> evictNode(Node n) {
    return evict(n, ref -> true);
  }

  /** Evicts the pods on {@code n} that {@code which} selects; see {@link #evictNode}. */
  private List<Object> evict(Node n, java.util.function.Predicate<Node.PodRef> which) {
    List<Object> owners = new ArrayList<>();
    for (Node.PodRef ref : n.pods.toList()) {
      if (!which.test(ref)) {
        continue;
      }
      Pods pods = ref.pods();
      cluster.allocate(n, pods.requests[pods.podSetOfPod[ref.index()]], -1);
      pods.nodeOfPod[ref.index()] = -1;
      pods.bound--;
      placed(ref.owner(), n, pods, ref.index(), -1);
      if (!owners.contains(ref.owner())) {
        owners.add(ref.owner());
      }
      waiting.unbound(ref.owner(), pods, ref.index());
      n.pods.remove(ref);
      pods.refs[ref.index()] = null;
    }
    return owners;
  }

  /** The owners of the pods bound to {@code n}, in binding order. */
  public java.util.Set<Object> ownersOn(Node n) {
    java.util.Set<Object> out = new java.util.LinkedHashSet<>();
    for (Node.PodRef ref : n.pods) {
      out.add(ref.owner());
    }
    return out;
  }

  /** Fails a node: NotReady, its pods lost. */
  public List<Object> failNode(Node n) {
    cluster.setState(n, true, null, null);
    return evictNode(n);
  }

  /** The kubelet stopped reporting: NotReady, no new pods; those bound there keep running for now. */
  public void notReady(Node n) {
    cluster.setState(n, true, null, null);
  }

  /**
   * New labels and taints for a node (a timeline action): pending pods see them from now on; pods bound
   * there that do not tolerate a NoExecute taint are evicted (kube's taint manager). Returns their owners.
   */
  public List<Object> edit(Node n, java.util.SortedMap<String, String> labels, List<batchsim.core.model.Taint> taints) {
    cluster.edit(n, labels, taints);
    return evict(n, ref -> !ref.pods().needs[ref.pods().podSetOfPod[ref.index()]].toleratesExecute(n.taints));
  }

  public void recoverNode(Node n) {
    cluster.setState(n, false, null, null);
  }

  /** Cordons a node; with {@code drain} its pods are evicted too. */
  public List<Object> cordonNode(Node n, boolean drain) {
    cluster.setState(n, null, true, null);
    return drain ? evictNode(n) : List.of();
  }

  public void uncordonNode(Node n) {
    cluster.setState(n, null, false, null);
  }

  public List<Object> removeNode(Node n) {
    cluster.setState(n, null, null, true);
    return evictNode(n);
  }

  public List<Node> addNodes(int pool, int count) {
    return cluster.addNodes(pool, count);
  }

  /** Nodes each bound pod of the workload sits on, for reports and tests. */
  public List<String> placement(Pods pods) {
    List<String> out = new ArrayList<>();
    for (int n : pods.nodeOfPod) {
      out.add(n < 0 ? "-" : cluster.nodes.get(n).name);
    }
    return out;
  }
}
