package batchsim.core.world.kueue;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventTarget;
import batchsim.core.kueue.CheckState;
import batchsim.core.kueue.Condition;
import batchsim.core.kueue.ConditionType;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.world.StatusRecord;
import batchsim.core.world.StatusSink;
import batchsim.core.world.kueue.WorkloadStatus.CheckView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The opt-in status record: Kueue's objects (Workloads, ClusterQueues, LocalQueues, Cohorts) written to a
 * {@link StatusSink} whenever their status changed. The engine says which workloads it touched
 * ({@code Host.onWorkloadChanged}); at the end of the instant (a {@link EventKind#STATUS_RECORD} event, after
 * everything else then) each touched workload, its queues and its cohort tree are shaped as Kueue's API
 * shapes them and written when they differ from what was last written for them. What is kept is bounded by
 * the live objects: a workload that finished, was deleted or deactivated is forgotten once written.
 *
 * <p>Counts and admitted usage are Kueue's: pending = in the ClusterQueue's active heap or inadmissible set,
 * reserving = holding quota, admitted = holding quota with Admitted=True.
 */
final class StatusRecorder implements EventTarget {
  private final KueueAdmission admission;
  private final StatusSink sink;
  private final WorkloadStatus workloadStatus;
  private final QueueStatus queueStatus;
  private final int nRes;
  private final List<ClusterQueueSpec> cqs;
  private final Map<String, Integer> cqIndex = new LinkedHashMap<>();
  private final Map<String, Integer> lqIndex = new LinkedHashMap<>();
  /** Per ClusterQueue and LocalQueue: pending, reserving, admitted. */
  private final int[][] cqCounts;
  private final int[][] lqCounts;
  /** Per ClusterQueue, the usage of its admitted workloads, [flavor * resources + resource]. */
  private final long[][] admittedUsage;
  private final long[] activeSince;
  private final String[] activeReason;
  /** The ClusterQueues and cohorts of each cohort tree, by root; queues outside cohorts are their own tree. */
  private final Map<String, Set<String>> treeQueues = new HashMap<>();
  private final Map<String, Set<String>> treeCohorts = new HashMap<>();
  private final Map<String, String> rootOfQueue = new HashMap<>();
  private final Map<Workload, Tracked> tracked = new IdentityHashMap<>();
  private final Map<String, Map<String, Object>> lastQueueStatus = new HashMap<>();
  private final Set<Workload> dirtyWorkloads = new LinkedHashSet<>();
  private final Set<String> dirtyQueues = new LinkedHashSet<>();
  private final Set<String> dirtyLocalQueues = new LinkedHashSet<>();
  /**
   * LocalQueue → its fairSharing status as Kueue's LocalQueue reconciler last wrote it (at its creation and at
   * each usage sample; settlements in between change only Kueue's cache).
   */
  private final Map<String, Map<String, Object>> afsStatus = new HashMap<>();
  private final Set<String> dirtyCohorts = new LinkedHashSet<>();
  private boolean flushScheduled;
  /** Checked runs: where the written counts disagree with the engine (a change the record did not hear of). */
  private final List<String> violations = new ArrayList<>();

  /** What was last written for one workload, and what it adds to its queues' counts. */
  private static final class Tracked {
    Map<String, Object> status;
    boolean active = true;
    boolean pending;
    boolean reserving;
    boolean admitted;
    long[] admittedUsage;
    final Map<String, CheckView> checks = new LinkedHashMap<>();
    long admittedSinceMs = Workload.UNSET_TIME;
    long accumulatedSeconds;
    /** The queues its counts are in. */
    String cq;
    String lq;
  }

  StatusRecorder(KueueAdmission admission, StatusSink sink) {
    this.admission = admission;
    this.sink = sink;
    this.workloadStatus = new WorkloadStatus(admission);
    this.nRes = admission.nRes;
    this.queueStatus = new QueueStatus(admission.kueue, admission.spec.resources());
    this.cqs = admission.spec.clusterQueues();
    for (ClusterQueueSpec cq : cqs) {
      cqIndex.put(cq.name(), cqIndex.size());
    }
    for (LocalQueueSpec lq : admission.spec.localQueues()) {
      lqIndex.put(lq.name(), lqIndex.size());
    }
    this.cqCounts = new int[cqs.size()][3];
    this.lqCounts = new int[lqIndex.size()][3];
    this.admittedUsage = new long[cqs.size()][admission.spec.flavors().size() * nRes];
    this.activeSince = new long[cqs.size()];
    this.activeReason = new String[cqs.size()];
    linkTrees();
    // Every queue and cohort is written once at the start.
    dirtyQueues.addAll(cqIndex.keySet());
    dirtyLocalQueues.addAll(lqIndex.keySet());
    dirtyCohorts.addAll(admission.kueue.cohortNames());
    scheduleFlush();
  }

  /** Which queues and cohorts share a tree (a change in one rewrites the others), as the engine links them now. */
  private void linkTrees() {
    treeCohorts.clear();
    rootOfQueue.clear();
    treeQueues.clear();
    Map<String, String> parent = new HashMap<>();
    for (String c : admission.kueue.cohortNames()) {
      parent.put(c, admission.kueue.cohortParent(c));
    }
    for (String c : admission.kueue.cohortNames()) {
      treeCohorts.computeIfAbsent(root(c, parent), k -> new LinkedHashSet<>()).add(c);
    }
    for (ClusterQueueSpec initial : cqs) {
      ClusterQueueSpec cq = admission.kueue.clusterQueueSpec(initial.name());
      String root = cq.cohort() == null ? "\0" + cq.name() : root(cq.cohort(), parent);
      rootOfQueue.put(cq.name(), root);
      treeQueues.computeIfAbsent(root, k -> new LinkedHashSet<>()).add(cq.name());
    }
  }

  private static String root(String cohort, Map<String, String> parent) {
    String c = cohort;
    for (int guard = 0; parent.get(c) != null && guard < 1000; guard++) {
      c = parent.get(c);
    }
    return c;
  }

  /** Admission fair sharing sampled these LocalQueues: their status is written again. */
  void usageSampled(List<String> localQueues) {
    for (String lq : localQueues) {
      afsStatus.put(lq, queueStatus.admissionFairSharing(lq));
      if (lqIndex.containsKey(lq)) {
        dirtyLocalQueues.add(lq);
      }
    }
    scheduleFlush();
  }

  void workloadChanged(Workload w) {
    dirtyWorkloads.add(w);
    scheduleFlush();
  }

  /** A timeline action may change any queue (quota, stop, delete) and the workloads in it. */
  void everythingChanged() {
    linkTrees(); // a timeline action may have moved queues between cohorts
    dirtyWorkloads.addAll(tracked.keySet());
    dirtyQueues.addAll(cqIndex.keySet());
    dirtyLocalQueues.addAll(lqIndex.keySet());
    dirtyCohorts.addAll(admission.kueue.cohortNames());
    scheduleFlush();
  }

  /**
   * An admission check controller gave a verdict (with its message), and the engine has taken it: the check's
   * state is written as the verdict made it, even when an eviction it caused resets it within the instant.
   */
  void checkVerdict(Workload w, String check, CheckState requested, String message) {
    CheckState now = w.check(check);
    if (now != requested && !(now == null && (requested == CheckState.RETRY || requested == CheckState.REJECTED))) {
      return; // ignored by the engine (no longer that reservation, or not a legal transition)
    }
    CheckView v = tracked(w).checks.computeIfAbsent(check, CheckView::new);
    String state = WorkloadStatus.checkState(requested);
    if (!state.equals(v.state)) {
      v.state = state;
      v.timeMs = admission.loop.now();
    }
    v.message = message == null ? "" : message;
    workloadChanged(w);
  }

  private Tracked tracked(Workload w) {
    return tracked.computeIfAbsent(w, k -> new Tracked());
  }

  private void scheduleFlush() {
    if (!flushScheduled) {
      flushScheduled = true;
      admission.loop.schedule(admission.loop.now(), EventKind.STATUS_RECORD, this, null);
    }
  }

  @Override
  public void handle(Event e) {
    flushScheduled = false;
    long now = admission.loop.now();
    for (Workload w : dirtyWorkloads) {
      writeWorkload(w, now);
    }
    dirtyWorkloads.clear();
    for (String lq : dirtyLocalQueues) {
      if (!admission.kueue.localQueueExists(lq)) {
        continue; // not created yet, or deleted: no object to record
      }
      int[] c = lqCounts[lqIndex.get(lq)];
      String[] ns = split(lq);
      Map<String, Object> s = QueueStatus.counts(new LinkedHashMap<>(), c[0], c[1], c[2]);
      Map<String, Object> afs = afsStatus.computeIfAbsent(lq, queueStatus::admissionFairSharing);
      if (afs != null) {
        s.put("fairSharing", afs);
      }
      write(now, "LocalQueue", ns[0], ns[1], null, s);
    }
    dirtyLocalQueues.clear();
    // With fair sharing, usage anywhere in a cohort tree changes every share in it; without, a queue's status
    // is its own.
    Set<String> queues = new LinkedHashSet<>();
    for (String cq : dirtyQueues) {
      String root = rootOfQueue.get(cq);
      if (admission.kueue.fairSharing()) {
        queues.addAll(treeQueues.get(root));
        dirtyCohorts.addAll(treeCohorts.getOrDefault(root, Set.of()));
      } else {
        queues.add(cq);
      }
    }
    dirtyQueues.clear();
    for (String cq : queues) {
      writeClusterQueue(cq, now);
    }
    for (String c : dirtyCohorts) {
      write(now, "Cohort", null, c, null, queueStatus.cohort(c));
    }
    dirtyCohorts.clear();
    if (admission.checked) {
      compareCounts();
    }
  }

  /** At the end of an instant the counts written must be the engine's (checked in checked runs). */
  private void compareCounts() {
    int[][] engine = new int[cqs.size()][3];
    for (Workload w : admission.kueue.reservedWorkloads()) {
      int i = cqIndex.get(w.clusterQueueName());
      engine[i][1]++;
      Condition c = w.condition(ConditionType.ADMITTED);
      engine[i][2] += c != null && c.status() ? 1 : 0;
    }
    for (ClusterQueueSpec cq : cqs) {
      int i = cqIndex.get(cq.name());
      engine[i][0] = admission.kueue.pendingCount(cq.name());
      if (!java.util.Arrays.equals(engine[i], cqCounts[i])) {
        violations.add("status record of ClusterQueue " + cq.name() + " counts (pending, reserving, admitted) "
            + java.util.Arrays.toString(cqCounts[i]) + " but the engine has " + java.util.Arrays.toString(engine[i]));
      }
    }
  }

  /** The disagreements found since the last call (checked runs). */
  List<String> takeViolations() {
    List<String> out = new ArrayList<>(violations);
    violations.clear();
    return out;
  }

  private void writeClusterQueue(String cq, long now) {
    if (!admission.kueue.clusterQueueExists(cq)) {
      return; // not created yet, or deleted and gone
    }
    int i = cqIndex.get(cq);
    String reason = String.join("\0", queueStatus.activeState(cq));
    if (!reason.equals(activeReason[i])) { // the Active condition's lastTransitionTime
      activeReason[i] = reason;
      activeSince[i] = now;
    }
    write(now, "ClusterQueue", null, cq, null,
        queueStatus.clusterQueue(admission.kueue.clusterQueueSpec(cq), cqCounts[i], admittedUsage[i], activeSince[i]));
  }

  private void write(long now, String kind, String ns, String name, Map<String, Object> spec,
      Map<String, Object> status) {
    String key = kind + "\0" + ns + "\0" + name;
    if (!status.equals(lastQueueStatus.get(key))) {
      lastQueueStatus.put(key, status);
      sink.accept(new StatusRecord(now, kind, ns, name, spec, status));
    }
  }

  private void writeWorkload(Workload w, long now) {
    Tracked t = tracked(w);
    Condition admitted = w.condition(ConditionType.ADMITTED);
    boolean isAdmitted = admitted != null && admitted.status();
    // Kueue SyncAdmittedCondition: Admitted True → False adds the time since it turned True.
    if (isAdmitted) {
      t.admittedSinceMs = admitted.timeMs();
    } else if (t.admittedSinceMs != Workload.UNSET_TIME && admitted != null) {
      t.accumulatedSeconds += (admitted.timeMs() - t.admittedSinceMs) / 1000;
      t.admittedSinceMs = Workload.UNSET_TIME;
    }
    updateChecks(w, t, now);
    count(w, t, w.queued(), w.holdingQuota(), w.holdingQuota() && isAdmitted);
    boolean active = w.active();
    Map<String, Object> status = workloadStatus.status(w, new ArrayList<>(t.checks.values()), t.accumulatedSeconds,
        now);
    if (!status.equals(t.status) || active != t.active) {
      t.status = status;
      t.active = active;
      String[] ns = workloadName(w);
      sink.accept(new StatusRecord(now, "Workload", ns[0], ns[1], Map.of("active", active), status));
    }
    WorkloadState s = w.state();
    if (s == WorkloadState.FINISHED || s == WorkloadState.DELETED || s == WorkloadState.DEACTIVATED
        || s == WorkloadState.REJECTED) {
      tracked.remove(w);
    }
  }

  /**
   * The checks of the current reservation as the engine has them (a Pending check keeps the message it had,
   * as Kueue keeps it until the controller writes another); when the engine dropped them at an eviction,
   * Kueue's resetChecksOnEviction: each non-Pending check turns Pending with "Reset to Pending after
   * eviction. Previously: STATE", and a Retry counts in retryCount.
   */
  private void updateChecks(Workload w, Tracked t, long now) {
    Map<String, CheckState> current = w.checks();
    if (current.isEmpty()) {
      for (CheckView v : t.checks.values()) {
        if (!v.state.equals("Pending")) {
          if (v.state.equals("Retry")) {
            v.retryCount++;
          }
          v.message = "Reset to Pending after eviction. Previously: " + v.state;
          v.state = "Pending";
          v.timeMs = now;
        }
      }
      return;
    }
    t.checks.keySet().retainAll(current.keySet());
    current.forEach((name, state) -> {
      CheckView v = t.checks.computeIfAbsent(name, CheckView::new);
      String s = WorkloadStatus.checkState(state);
      if (!s.equals(v.state)) { // a new reservation lists its checks Pending; verdicts come through checkVerdict
        if (s.equals("Pending") && v.state != null && !v.state.equals("Pending")) {
          // evicted and reserved again within the instant: the same reset as above
          if (v.state.equals("Retry")) {
            v.retryCount++;
          }
          v.message = "Reset to Pending after eviction. Previously: " + v.state;
        }
        v.state = s;
        v.timeMs = now;
      }
    });
  }

  /** Moves the workload's part of its queues' counts and admitted usage to what it is now. */
  private void count(Workload w, Tracked t, boolean pending, boolean reserving, boolean admitted) {
    if (t.cq != null && (!t.cq.equals(w.clusterQueueName()) || !t.lq.equals(w.spec().localQueue()))) {
      shift(w, t, false, false, false); // moved to another LocalQueue: out of the counts of the queues it left
    }
    t.cq = w.clusterQueueName();
    t.lq = w.spec().localQueue();
    shift(w, t, pending, reserving, admitted);
  }

  private void shift(Workload w, Tracked t, boolean pending, boolean reserving, boolean admitted) {
    if (pending == t.pending && reserving == t.reserving && admitted == t.admitted) {
      if (admitted && t.admittedUsage != null && cqIndex.get(t.cq) != null) {
        resized(w, t, cqIndex.get(t.cq)); // [elastic] an admitted workload's count may have shrunk in place
      }
      return;
    }
    Integer cq = cqIndex.get(t.cq);
    Integer lq = lqIndex.get(t.lq);
    int[] delta = {(pending ? 1 : 0) - (t.pending ? 1 : 0), (reserving ? 1 : 0) - (t.reserving ? 1 : 0),
        (admitted ? 1 : 0) - (t.admitted ? 1 : 0)};
    for (int k = 0; k < 3; k++) {
      if (cq != null) {
        cqCounts[cq][k] += delta[k];
      }
      if (lq != null) {
        lqCounts[lq][k] += delta[k];
      }
    }
    if (cq != null) {
      if (t.admittedUsage != null) {
        add(admittedUsage[cq], t.admittedUsage, -1);
        t.admittedUsage = null;
      }
      if (admitted) {
        t.admittedUsage = usage(w);
        add(admittedUsage[cq], t.admittedUsage, 1);
      }
      dirtyQueues.add(t.cq);
    }
    if (lq != null) {
      dirtyLocalQueues.add(t.lq);
    }
    t.pending = pending;
    t.reserving = reserving;
    t.admitted = admitted;
  }

  private void resized(Workload w, Tracked t, int cq) {
    long[] now = usage(w);
    if (!java.util.Arrays.equals(now, t.admittedUsage)) {
      add(admittedUsage[cq], t.admittedUsage, -1);
      t.admittedUsage = now;
      add(admittedUsage[cq], now, 1);
      dirtyQueues.add(t.cq);
    }
  }

  private long[] usage(Workload w) {
    long[] u = new long[admittedUsage.length == 0 ? 0 : admittedUsage[0].length];
    for (int i = 0; i < w.spec().podSets().size(); i++) {
      PodSetSpec ps = w.podSet(i);
      for (int r = 0; r < nRes; r++) {
        int f = w.flavorOf(i, r);
        if (f >= 0) {
          long perPod = r == admission.spec.resources().indexOf(batchsim.core.model.ResourceSpace.PODS) ? 1
              : ps.perPod().get(r);
          u[f * nRes + r] += perPod * w.admittedCount(i);
        }
      }
    }
    return u;
  }

  private static void add(long[] into, long[] v, int sign) {
    for (int i = 0; i < v.length; i++) {
      into[i] += sign * v[i];
    }
  }

  /** A Workload lives in its LocalQueue's namespace unless its id names one ("namespace/name"). */
  private static String[] workloadName(Workload w) {
    return w.id().indexOf('/') >= 0 ? split(w.id()) : new String[] {split(w.spec().localQueue())[0], w.id()};
  }

  /** "namespace/name" → [namespace, name]; a name without one is in "default". */
  static String[] split(String id) {
    int slash = id.indexOf('/');
    return slash < 0 ? new String[] {"default", id} : new String[] {id.substring(0, slash), id.substring(slash + 1)};
  }
}
