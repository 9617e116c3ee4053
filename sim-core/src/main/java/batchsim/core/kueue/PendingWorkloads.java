package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A ClusterQueue's pending workloads: Kueue's active heap and inadmissible set (pkg/cache/queue/cluster_queue.go),
 * grouped by {@link SchedulingShape} so that Kueue's moves of a whole shape cost O(1) instead of O(workloads).
 *
 * <p>Each shape has a {@link Bucket} of two {@link Part}s, one active and one parked, each in queue order.
 * The heap is the buckets ordered by their first active workload, so popping the head is the same as popping
 * one heap of every active workload. Parking every active workload of a shape (Kueue handleInadmissibleHash)
 * and moving every parked workload back (QueueInadmissibleWorkloads) swap or merge two parts, moving only the
 * smaller one's members. The reason and message those workloads are parked with are written once on the part
 * ({@link Part#note}): a workload's own note counts only if it is newer (see {@link Workload#pendingReason()}).
 *
 * <p>Workloads whose requeuing backoff runs (Requeued=False) are parked one by one in {@link #held}: each
 * leaves when its own backoff expires. requeueHeld and requeueAt are set only at an eviction, outside the
 * queues, so a workload in a bucket never starts a backoff while it is there.
 *
 * <p>Nothing here changes what Kueue is seen to do: the head, the order, which workloads are parked, their
 * reasons and every count are those of one heap and one set. Orders that Kueue leaves to a Go map (listing
 * the inadmissible workloads) are queue order here.
 */
final class PendingWorkloads {

  /** Workloads of one shape that are all active or all parked, in queue order. */
  static final class Part {
    final PendingWorkloads owner;
    final Bucket bucket; // null for the held part
    final TreeSet<Workload> members;
    boolean parked;
    /** Members that joined while a requeuing backoff ran (only the held part has them, but for rare cases). */
    int backoffPending;
    /** The reason and message the part was last parked with, and when (a tick of {@link #tick}). */
    String noteReason = "";
    String noteMessage = "";
    long noteStamp = -1;

    Part(PendingWorkloads owner, Bucket bucket, boolean parked, Comparator<Workload> order) {
      this.owner = owner;
      this.bucket = bucket;
      this.members = new TreeSet<>(order);
      this.parked = parked;
    }

    /** Parks the whole part with one reason and message. */
    void note(String reason, String message) {
      noteReason = reason;
      noteMessage = message;
      noteStamp = owner.nextTick();
    }
  }

  /** The pending workloads of one scheduling shape. */
  static final class Bucket {
    final Object key;
    final SchedulingShape shape;
    /** The LocalQueue of its workloads when the queue is split by LocalQueue, else null. */
    final String localQueue;
    Part active;
    Part parked;

    Bucket(PendingWorkloads owner, Object key, SchedulingShape shape, String localQueue) {
      this.key = key;
      this.shape = shape;
      this.localQueue = localQueue;
      this.active = new Part(owner, this, false, owner.order);
      this.parked = new Part(owner, this, true, owner.order);
    }

    void swapParts() {
      Part a = active;
      active = parked;
      parked = a;
      active.parked = false;
      parked.parked = true;
    }

    boolean isEmpty() {
      return active.members.isEmpty() && parked.members.isEmpty();
    }
  }

  /** A bucket's key when the queue is split by LocalQueue (admission fair sharing). */
  private record LocalQueueShape(SchedulingShape shape, String localQueue) {}

  private final Comparator<Workload> order;
  /** Buckets by shape, or by shape and LocalQueue when {@link #byLocalQueue}. */
  private final Map<Object, Bucket> buckets = new LinkedHashMap<>();
  /**
   * Admission fair sharing orders LocalQueues by their usage first: each bucket then holds one LocalQueue's
   * workloads, whose order among themselves never changes when the usage does.
   */
  private boolean byLocalQueue;
  /** Buckets with active workloads, ordered by their first one: the heap. */
  private final TreeSet<Bucket> heads;
  /** Buckets with parked workloads, in the order they were first parked. */
  private final Set<Bucket> withParked = new LinkedHashSet<>();
  /** Parked workloads whose requeuing backoff runs. */
  final Part held;
  private int activeCount;
  private int parkedCount;
  private long tick;

  /**
   * {@code order} is the queue order; {@code baseOrder} the one among workloads of any LocalQueues whose order
   * never changes while they wait (the same unless admission fair sharing orders LocalQueues by usage).
   */
  PendingWorkloads(Comparator<Workload> order, Comparator<Workload> baseOrder) {
    this.order = order;
    this.heads = new TreeSet<>((a, b) -> order.compare(a.active.members.first(), b.active.members.first()));
    this.held = new Part(this, null, true, baseOrder);
  }

  /** One order for every workload (tests). */
  PendingWorkloads(Comparator<Workload> order) {
    this(order, order);
  }

  /** Splits buckets by LocalQueue (before any workload joins). */
  void splitByLocalQueue() {
    byLocalQueue = true;
  }

  /**
   * Runs {@code change} (a new usage of the LocalQueue) while that LocalQueue's buckets are out of the heap,
   * so the heap stays ordered. Costs the number of buckets.
   */
  void reorderLocalQueue(String localQueue, Runnable change) {
    List<Bucket> moved = new ArrayList<>();
    for (Bucket b : buckets.values()) {
      if (localQueue.equals(b.localQueue) && !b.active.members.isEmpty()) {
        heads.remove(b);
        moved.add(b);
      }
    }
    change.run();
    heads.addAll(moved);
  }

  long nextTick() {
    return ++tick;
  }

  int activeCount() {
    return activeCount;
  }

  int parkedCount() {
    return parkedCount;
  }

  /** Takes the head of the heap, or null. */
  Workload pollFirst() {
    Bucket b = heads.pollFirst();
    if (b == null) {
      return null;
    }
    Workload w = b.active.members.first();
    leave(w);
    settle(b);
    return w;
  }

  /** Puts the workload in the heap, out of the parked workloads; false if it already is in the heap. */
  boolean pushActive(Workload w) {
    if (w.part != null && !w.part.parked) {
      return false;
    }
    if (w.part != null) {
      forget(w);
    }
    Bucket b = bucket(w);
    unsettle(b);
    join(b.active, w);
    settle(b);
    return true;
  }

  /** Parks the workload unless it is queued already; false if it was. */
  boolean pushInadmissible(Workload w) {
    if (w.part != null) {
      return false;
    }
    if (backoffPending(w)) {
      join(held, w);
      return true;
    }
    Bucket b = bucket(w);
    join(b.parked, w);
    withParked.add(b);
    return true;
  }

  /**
   * Parks every active workload of {@code w}'s shape with the reason and message given. {@code touched}, when
   * not null, hears each one parked (checked mode and status records only: it costs one call per workload).
   * Returns how many were parked.
   */
  int parkShape(Workload w, String reason, String message, Consumer<Workload> touched) {
    if (!byLocalQueue) {
      return parkBucket(buckets.get(w.shape), reason, message, touched);
    }
    // Kueue's equivalence hash does not name the LocalQueue: the shape is parked in every LocalQueue.
    int n = 0;
    for (Bucket b : new ArrayList<>(buckets.values())) {
      if (b.shape.equals(w.shape)) {
        n += parkBucket(b, reason, message, touched);
      }
    }
    return n;
  }

  private int parkBucket(Bucket b, String reason, String message, Consumer<Workload> touched) {
    if (b == null || b.active.members.isEmpty()) {
      return 0;
    }
    unsettle(b);
    Part a = b.active;
    int n = a.members.size();
    if (a.backoffPending > 0) {
      for (Workload m : new ArrayList<>(a.members)) {
        if (m.joinedInBackoff) { // parked one by one: its own backoff decides when it may come back
          leave(m);
          m.setPending(reason, message);
          join(held, m);
          if (touched != null) {
            touched.accept(m);
          }
        }
      }
    }
    if (touched != null) {
      a.members.forEach(touched);
    }
    a.note(reason, message);
    if (!a.members.isEmpty()) {
      merge(b, a, b.parked);
      withParked.add(b);
    }
    settle(b);
    return n;
  }

  /** Moves every parked workload whose backoff expired back to the heap; returns how many moved. */
  int requeueParked(long now) {
    int moved = 0;
    for (Bucket b : withParked) {
      unsettle(b);
      moved += b.parked.members.size();
      merge(b, b.parked, b.active);
      settle(b);
    }
    withParked.clear();
    if (held.members.isEmpty()) {
      return moved;
    }
    List<Workload> ready = new ArrayList<>();
    for (Workload w : held.members) {
      if (ClusterQueue.backoffExpired(w, now)) {
        ready.add(w);
      }
    }
    for (Workload w : ready) {
      pushActive(w);
    }
    return moved + ready.size();
  }

  /** Takes the workload out of the pending workloads (admitted, finished, moved or deleted). */
  void forget(Workload w) {
    Part p = w.part;
    if (p == null) {
      return;
    }
    Bucket b = p.bucket;
    if (b == null) {
      leave(w);
      return;
    }
    unsettle(b);
    leave(w);
    if (b.parked.members.isEmpty()) {
      withParked.remove(b);
    }
    settle(b);
  }

  /** Runs {@code change} (a new sticky head) while the workloads whose order it changes are out of their sets. */
  void reorder(Workload x, Workload y, Runnable change) {
    List<Workload> moved = new ArrayList<>(2);
    for (Workload w : new Workload[] {x, y}) {
      if (w != null && w.part != null && !moved.contains(w)) {
        moved.add(w);
      }
    }
    for (Workload w : moved) {
      if (w.part.bucket != null) {
        unsettle(w.part.bucket);
      }
    }
    for (Workload w : moved) {
      w.part.members.remove(w);
    }
    change.run();
    for (Workload w : moved) {
      w.part.members.add(w);
    }
    for (Workload w : moved) {
      if (w.part.bucket != null) {
        settle(w.part.bucket);
      }
    }
  }

  /** The active workloads in heap order. */
  List<Workload> activeInOrder() {
    List<Workload> out = new ArrayList<>(activeCount);
    for (Bucket b : heads) {
      out.addAll(b.active.members);
    }
    out.sort(order);
    return out;
  }

  /** The parked workloads in queue order. */
  List<Workload> parkedInOrder() {
    List<Workload> out = new ArrayList<>(parkedCount);
    for (Bucket b : withParked) {
      out.addAll(b.parked.members);
    }
    out.addAll(held.members);
    out.sort(order);
    return out;
  }

  /** Every pending workload in no particular order, and whether it is in the heap (for counts). */
  void forEach(java.util.function.BiConsumer<Workload, Boolean> visit) {
    for (Bucket b : buckets.values()) {
      b.active.members.forEach(w -> visit.accept(w, true));
      b.parked.members.forEach(w -> visit.accept(w, false));
    }
    held.members.forEach(w -> visit.accept(w, false));
  }

  /** Every pending workload: the heap in order, then the parked ones in queue order. */
  List<Workload> all() {
    List<Workload> out = activeInOrder();
    out.addAll(parkedInOrder());
    return out;
  }

  /** Checked mode: in how many of the sets that could hold it the workload is (1 when pending, else 0). */
  int places(Workload w) {
    int n = held.members.contains(w) ? 1 : 0;
    Bucket b = buckets.get(key(w));
    if (b != null) {
      n += (b.active.members.contains(w) ? 1 : 0) + (b.parked.members.contains(w) ? 1 : 0);
    }
    return n;
  }

  // ------------------------------------------------------------------ parts

  private Object key(Workload w) {
    return byLocalQueue ? new LocalQueueShape(w.shape, w.spec.localQueue()) : w.shape;
  }

  private Bucket bucket(Workload w) {
    return buckets.computeIfAbsent(key(w),
        k -> new Bucket(this, k, w.shape, byLocalQueue ? w.spec.localQueue() : null));
  }

  /** Takes the bucket out of the heap before its first active workload may change. */
  private void unsettle(Bucket b) {
    if (!b.active.members.isEmpty()) {
      heads.remove(b);
    }
  }

  /** Puts the bucket back in the heap (if it has active workloads), or drops it once empty. */
  private void settle(Bucket b) {
    if (!b.active.members.isEmpty()) {
      heads.add(b);
    } else if (b.isEmpty()) {
      buckets.remove(b.key);
    }
  }

  /**
   * Moves every member of {@code from} into {@code to} (the bucket's two parts): the parts swap roles when
   * that moves fewer workloads, so the cost is the smaller part's size.
   */
  private void merge(Bucket b, Part from, Part to) {
    int n = from.members.size();
    boolean toActive = !to.parked;
    if (from.members.size() > to.members.size()) {
      moveAll(to, from);
      b.swapParts();
    } else {
      moveAll(from, to);
    }
    activeCount += toActive ? n : -n;
    parkedCount += toActive ? -n : n;
  }

  private void moveAll(Part from, Part to) {
    for (Workload w : from.members) {
      w.settlePending();
      w.part = to;
      w.pendingStamp = nextTick(); // its own (settled) note is newer than anything on the part
      to.members.add(w);
    }
    to.backoffPending += from.backoffPending;
    from.members.clear();
    from.backoffPending = 0;
  }

  private void join(Part p, Workload w) {
    w.part = p;
    w.pendingStamp = nextTick();
    w.joinedInBackoff = backoffPending(w);
    p.members.add(w);
    if (w.joinedInBackoff) {
      p.backoffPending++;
    }
    if (p.parked) {
      parkedCount++;
    } else {
      activeCount++;
    }
  }

  private void leave(Workload w) {
    Part p = w.part;
    w.settlePending();
    p.members.remove(w);
    if (w.joinedInBackoff) {
      p.backoffPending--;
    }
    if (p.parked) {
      parkedCount--;
    } else {
      activeCount--;
    }
    w.part = null;
  }

  /** A requeuing backoff runs (Requeued=False): only the workload's own expiry may bring it back. */
  private static boolean backoffPending(Workload w) {
    return w.requeueHeld || w.requeueAtMs != Workload.UNSET_TIME;
  }
}
