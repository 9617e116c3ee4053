package batchsim.core.kueue;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.RequeuingTimestamp;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The Kueue admission engine: the quota tree (cohorts and ClusterQueues), their pending queues, the
 * scheduling cycle and the workload lifecycle transitions Kueue's controllers perform.
 *
 * <p>The engine owns all Kueue state and changes it only through these methods, called from the event
 * loop. It never schedules events itself: whatever takes time (pod termination, the inadmissible-requeue
 * batch delay) is asked of the {@link Host}.
 */
public final class KueueEngine {
  /** What the engine needs from the simulation around it. */
  public interface Host {
    /** Quota was reserved and the workload is Admitted: bind its pods. */
    void onAdmitted(Workload w);

    /** The workload was evicted (e.g. preempted); call {@link #evictionComplete} once its pods are gone. */
    void onEvicted(Workload w);

    /** Call {@link #processInadmissibleRequeues} at {@code atMs}. */
    void scheduleInadmissibleRequeue(long atMs);

    /** Call {@link #backoffFinished} for the workload at {@code atMs} (a requeuing backoff ends). */
    default void scheduleBackoffExpiry(Workload w, long atMs) {}

    /** Quota reserved but admission checks pending: run them, then call {@link #setCheckState}. */
    default void onQuotaReserved(Workload w) {}

    /** [TAS] Run a scheduling cycle at {@code atMs}: a second-pass (node replacement) backoff ends then. */
    default void scheduleSecondPass(long atMs) {}

    /**
     * [TAS] A second pass replaced the workload's unhealthy node: {@link #topologyPlacement} changed, and its
     * pods on the failed node belong on the new nodes.
     */
    default void onTopologyReassigned(Workload w) {}
  }

  /** A host that does nothing, for driving single cycles (conformance, tests). */
  public static final Host NO_HOST = new Host() {
    @Override
    public void onAdmitted(Workload w) {}

    @Override
    public void onEvicted(Workload w) {}

    @Override
    public void scheduleInadmissibleRequeue(long atMs) {}
  };

  final KueueConfig config;
  final FlavorResources index;
  final List<ResourceFlavorSpec> flavorSpecs;
  final List<ClusterQueue> queues = new ArrayList<>();
  final Map<String, ClusterQueue> queuesByName = new LinkedHashMap<>();
  final Map<String, Cohort> cohorts = new LinkedHashMap<>();
  final FlavorAssigner assigner = new FlavorAssigner(this);
  final Preemptor preemptor = new Preemptor(this);
  final Scheduler scheduler = new Scheduler(this);
  final QueueLifecycle lifecycle = new QueueLifecycle(this);
  /** [TAS] Topology Aware Scheduling: trees of the TAS flavors, topology assignments, second pass. */
  final Tas tas = new Tas(this);
  /** Operations the engine refused because they touched a deleted queue or a gone workload. */
  private final List<String> operationViolations = new ArrayList<>();
  private final LongSupplier clock;
  Host host = NO_HOST;
  long cycle;
  private final Set<QuotaNode> requeueRoots = new LinkedHashSet<>();
  private final List<String> events = new ArrayList<>();
  /** Kueue admission_cycle_preemption_skips of the last cycle, per ClusterQueue. */
  final Map<String, Integer> skippedPreemptions = new LinkedHashMap<>();
  private boolean recordEvents;
  /** Workloads whose state changed since the last check; kept only while checking is on. */
  private final List<Workload> touched = new ArrayList<>();
  private boolean trackTouched;

  public KueueEngine(KueueConfig config, ResourceSpace resources, List<ResourceFlavorSpec> flavors,
      List<CohortSpec> cohortSpecs, List<ClusterQueueSpec> cqSpecs, LongSupplier clock) {
    this.config = config;
    this.clock = clock;
    this.flavorSpecs = List.copyOf(flavors);
    List<String> names = new ArrayList<>();
    for (ResourceFlavorSpec f : flavors) {
      names.add(f.name());
    }
    this.index = new FlavorResources(names, resources);
    buildTree(cohortSpecs, cqSpecs);
  }

  public void setHost(Host host) {
    this.host = host;
  }

  long now() {
    return clock.getAsLong();
  }

  public FlavorResources index() {
    return index;
  }

  public long cycle() {
    return cycle;
  }

  // ------------------------------------------------------------------ tree construction

  private void buildTree(List<CohortSpec> cohortSpecs, List<ClusterQueueSpec> cqSpecs) {
    int frs = index.size();
    for (CohortSpec c : cohortSpecs) {
      Cohort node = new Cohort(c.name(), c.fairWeight(), frs);
      applyQuotas(node, c.resourceGroups());
      cohorts.put(c.name(), node);
    }
    for (ClusterQueueSpec s : cqSpecs) {
      if (s.cohort() != null) {
        cohorts.computeIfAbsent(s.cohort(), n -> new Cohort(n, 1.0, frs));
      }
    }
    for (CohortSpec c : cohortSpecs) {
      if (c.parent() != null) {
        Cohort parent = cohorts.computeIfAbsent(c.parent(), n -> new Cohort(n, 1.0, frs));
        Cohort child = cohorts.get(c.name());
        child.parent = parent;
        parent.childCohorts.add(child);
      }
    }
    int podsIdx = index.resources().indexOf(ResourceSpace.PODS);
    for (ClusterQueueSpec s : cqSpecs) {
      ClusterQueue q = new ClusterQueue(s, queues.size(), frs, index.resources().size(), podsIdx);
      for (ResourceGroupSpec g : s.resourceGroups()) {
        int[] covered = g.coveredResources().stream().mapToInt(index.resources()::require).toArray();
        int[] fl = g.flavors().stream().mapToInt(f -> requireFlavor(f.flavor())).toArray();
        for (int r : covered) {
          q.groupOfResource[r] = q.groups.size();
        }
        q.groups.add(new ResourceGroup(covered, fl));
      }
      applyQuotas(q, s.resourceGroups());
      if (s.cohort() != null) {
        Cohort parent = cohorts.get(s.cohort());
        q.parent = parent;
        parent.childQueues.add(q);
      }
      queues.add(q);
      queuesByName.put(s.name(), q);
    }
    for (Cohort c : cohorts.values()) {
      if (inCycle(c)) {
        throw new IllegalArgumentException("cohort " + c.name + " is part of a cycle");
      }
    }
    for (Cohort c : cohorts.values()) {
      if (c.parent == null) {
        computeSubtree(c);
      }
    }
    for (ClusterQueue q : queues) {
      if (q.parent == null) {
        System.arraycopy(q.nominal, 0, q.subtreeQuota, 0, frs);
      }
    }
  }

  private int requireFlavor(String name) {
    int f = index.flavorIndex(name);
    if (f < 0) {
      throw new IllegalArgumentException("unknown flavor " + name);
    }
    return f;
  }

  private static boolean inCycle(Cohort c) {
    Set<Cohort> seen = new java.util.HashSet<>();
    for (Cohort p = c; p != null; p = p.parent) {
      if (!seen.add(p)) {
        return true;
      }
    }
    return false;
  }

  private void applyQuotas(QuotaNode node, List<ResourceGroupSpec> groups) {
    for (ResourceGroupSpec g : groups) {
      for (FlavorQuotaSpec fq : g.flavors()) {
        int f = requireFlavor(fq.flavor());
        for (Map.Entry<String, QuotaSpec> e : fq.resources().entrySet()) {
          int fr = index.fr(f, index.resources().require(e.getKey()));
          QuotaSpec q = e.getValue();
          node.nominal[fr] = q.nominal();
          node.borrowingLimit[fr] = q.hasBorrowingLimit() ? q.borrowingLimit() : QuotaNode.NO_LIMIT;
          node.lendingLimit[fr] = q.hasLendingLimit() ? q.lendingLimit() : QuotaNode.NO_LIMIT;
        }
      }
    }
  }

  /** Kueue updateCohortResourceNode: subtree quotas and usage, bottom-up; also the cohort heights. */
  private void computeSubtree(Cohort c) {
    int frs = index.size();
    System.arraycopy(c.nominal, 0, c.subtreeQuota, 0, frs);
    java.util.Arrays.fill(c.usage, 0);
    int height = c.childCohorts.isEmpty() && c.childQueues.isEmpty() ? 0 : 1;
    for (Cohort child : c.childCohorts) {
      computeSubtree(child);
      height = Math.max(height, child.height + 1);
      accumulate(c, child);
    }
    for (ClusterQueue q : c.childQueues) {
      System.arraycopy(q.nominal, 0, q.subtreeQuota, 0, frs);
      accumulate(c, q);
    }
    c.height = height;
  }

  private void accumulate(Cohort parent, QuotaNode child) {
    for (int fr = 0; fr < index.size(); fr++) {
      parent.subtreeQuota[fr] += child.subtreeQuota[fr] - child.localQuota(fr);
      parent.usage[fr] += Math.max(0, child.usage[fr] - child.localQuota(fr));
    }
  }

  // ------------------------------------------------------------------ workloads

  /**
   * Creates a workload in a ClusterQueue and queues it.
   *
   * @param uid Kueue UID for tie-breaks (null in simulations: arrival order breaks ties)
   */
  public Workload submit(WorkloadSpec spec, String clusterQueue, int priority, long seq, String uid) {
    ClusterQueue q = queuesByName.get(clusterQueue);
    if (q == null) {
      throw new IllegalArgumentException("unknown ClusterQueue " + clusterQueue);
    }
    Workload w = new Workload(spec, seq, uid, q, priority, spec.createdMs());
    if (keepHistory) {
      w.history = new ArrayList<>();
    }
    w.queueTs = w.createdMs;
    if (lifecycle.isHeld(spec.localQueue())) {
      lifecycle.hold(w);
      return w;
    }
    q.pushActive(w);
    if (!q.active) {
      w.pendingReason = q.deleted ? "Misconfigured" : "Suspended";
      w.pendingMessage = q.inactiveMessage;
    }
    touch(w);
    return w;
  }

  /** Test/conformance setup: the workload already holds quota with the given flavors and counts. */
  public Workload assumeAdmitted(WorkloadSpec spec, String clusterQueue, int priority, long seq, String uid,
      int[][] flavors, long reservedAtMs) {
    ClusterQueue q = queuesByName.get(clusterQueue);
    Workload w = new Workload(spec, seq, uid, q, priority, spec.createdMs());
    int[] counts = spec.podSets().stream().mapToInt(p -> p.count()).toArray();
    java.util.TreeMap<Integer, Long> usage = new java.util.TreeMap<>();
    for (int i = 0; i < counts.length; i++) {
      long[] req = FlavorAssigner.requests(spec.podSets().get(i), counts[i], q, index.resources().size());
      for (int r = 0; r < req.length; r++) {
        if (req[r] > 0 && flavors[i][r] >= 0) {
          usage.merge(index.fr(flavors[i][r], r), req[r], Long::sum);
        }
      }
    }
    reserve(w, flavors, counts, FrAmounts.of(usage), reservedAtMs);
    return w;
  }

  void reserve(Workload w, int[][] flavors, int[] counts, FrAmounts usage, long at) {
    ClusterQueue q = w.cq;
    if (q.deleted) {
      operationViolations.add("workload " + w.id() + " admitted into deleted ClusterQueue " + q.name);
    }
    touch(w);
    q.forget(w);
    w.flavors = flavors;
    w.counts = counts;
    w.usage = usage;
    q.addUsage(usage);
    q.admitted.add(w);
    w.state = WorkloadState.RESERVED;
    w.reservedAtMs = at;
    if (w.firstReservedAtMs == Workload.UNSET_TIME) {
      w.firstReservedAtMs = at;
    }
    w.admittedAtMs = at;
    w.lastAssignment = null;
    w.pendingReason = "";
    w.pendingMessage = "";
    w.setCondition(ConditionType.QUOTA_RESERVED, true, "QuotaReserved",
        "Quota reserved in ClusterQueue " + q.name, at);
    w.checks.clear();
    for (String c : q.spec.admissionChecks()) {
      w.checks.put(c, CheckState.PENDING);
    }
    if (!w.checks.isEmpty()) {
      // Kueue: Admitted waits until every admission check of the ClusterQueue is Ready.
      w.admittedAtMs = Workload.UNSET_TIME;
      w.setCondition(ConditionType.ADMITTED, false, "UnsatisfiedAdmissionChecks",
          "The workload has not all admission checks", at);
      event(w, "QuotaReserved", "Normal");
      return;
    }
    // No admission checks: Admitted follows QuotaReserved in the same patch.
    w.setCondition(ConditionType.ADMITTED, true, "Admitted",
        "The workload is admitted", at);
    if (w.conditions.containsKey(ConditionType.EVICTED)) {
      w.setCondition(ConditionType.EVICTED, false, "QuotaReserved", "Previously: " + w.evictionReason, at);
    }
    if (w.conditions.containsKey(ConditionType.PREEMPTED)) {
      w.setCondition(ConditionType.PREEMPTED, false, "QuotaReserved", "Previously: " + w.preemptionReason, at);
    }
    event(w, "QuotaReserved", "Normal");
    event(w, "Admitted", "Normal");
  }

  /** The admission checks of a workload's current reservation. */
  public List<String> checkNames(Workload w) {
    return new ArrayList<>(w.checks.keySet());
  }

  /** After the cycle reserved quota: bind pods now, or first run the admission checks. */
  void afterReservation(Workload w) {
    if (w.checks.isEmpty()) {
      host.onAdmitted(w);
    } else {
      host.onQuotaReserved(w);
    }
  }

  /**
   * An admission check controller's verdict (Kueue AdmissionCheckState). Ready on every check admits the
   * workload; Retry evicts it (reason AdmissionCheck) and requeues it after {@code requeueAfterMs};
   * Rejected evicts and deactivates it. Verdicts for a workload that no longer holds that reservation are
   * ignored.
   */
  public void setCheckState(Workload w, String check, CheckState state, long requeueAfterMs, String message) {
    CheckState current = w.checks.get(check);
    boolean admitted = !w.checks.containsValue(CheckState.PENDING);
    // A Ready check can still turn Retry/Rejected (BookingExpired, CapacityRevoked) until the workload is Admitted.
    boolean legal = current == CheckState.PENDING
        || (current == CheckState.READY && !admitted && (state == CheckState.RETRY || state == CheckState.REJECTED));
    if (w.state != WorkloadState.RESERVED || !legal) {
      return;
    }
    long now = now();
    touch(w);
    w.checks.put(check, state);
    switch (state) {
      case READY -> {
        // [TAS] A delayed topology is placed by a second pass first; Admitted follows it.
        if (!w.checks.containsValue(CheckState.PENDING) && !tas.deferAdmissionForTopology(w)) {
          w.admittedAtMs = now;
          w.setCondition(ConditionType.ADMITTED, true, "Admitted", "The workload is admitted", now);
          event(w, "Admitted", "Normal");
          host.onAdmitted(w);
        }
      }
      case RETRY -> {
        w.checkRequeueAfterMs = requeueAfterMs;
        evict(w, "AdmissionCheck", null, "At least one admission check is false: " + message);
      }
      case REJECTED -> evict(w, "DeactivatedDueToAdmissionCheck", null, "Admission check " + check
          + " rejected the workload: " + message);
      default -> { }
    }
  }

  /** All pods are up: PodsReady=True and the workload runs. */
  public void markRunning(Workload w) {
    long now = now();
    touch(w);
    w.state = WorkloadState.RUNNING;
    w.startedAtMs = now;
    w.setCondition(ConditionType.PODS_READY, true, "PodsReady", "All pods reached readiness", now);
  }

  /** The workload completed: release its quota and retry parked workloads in its cohort tree. */
  public void finish(Workload w) {
    long now = now();
    requireLive(w, "finish");
    touch(w);
    release(w);
    w.state = WorkloadState.FINISHED;
    w.finishedAtMs = now;
    w.setCondition(ConditionType.FINISHED, true, "Succeeded", "Job finished successfully", now);
    notifyRequeue(w.cq);
  }

  private void release(Workload w) {
    w.cq.removeUsage(w.usage);
    w.cq.admitted.remove(w);
    tas.release(w); // [TAS] its per-domain usage goes with its quota
  }

  /** Removes a workload's quota and TAS usage from the live state (a preemption or fits simulation). */
  void removeUsage(Workload w) {
    w.cq.removeUsage(w.usage);
    tas.workloadUsage(w, -1);
  }

  /** Undoes {@link #removeUsage}. */
  void addUsage(Workload w) {
    w.cq.addUsage(w.usage);
    tas.workloadUsage(w, +1);
  }

  /** Marks a workload Evicted (Kueue workloadevict.Evict); it keeps its quota until its pods are gone. */
  void evict(Workload w, String reason, String preemptionReason, String message) {
    long now = now();
    tas.forgetSecondPass(w); // [TAS] Evicted workloads never take a second pass
    requireLive(w, "evict");
    touch(w);
    w.state = WorkloadState.EVICTING;
    w.evictionReason = reason;
    w.evictedAtMs = now;
    w.evictions++;
    w.setCondition(ConditionType.EVICTED, true, reason, message, now);
    // Kueue workloadevict.Evict → reportEvictedWorkload records "EvictedDueTo<reason>" on every eviction.
    event(w, "EvictedDueTo" + reason, "Normal");
    w.preemptionReason = preemptionReason;
    if (preemptionReason != null) {
      w.preemptions++;
      w.setCondition(ConditionType.PREEMPTED, true, preemptionReason, message, now);
      event(w, "Preempted", "Normal");
    }
    host.onEvicted(w);
  }

  /**
   * The evicted workload's pods are gone: Kueue's job reconciler clears the reservation, sets Requeued and
   * the workload is queued again (it keeps its creation-time position).
   */
  public void evictionComplete(Workload w) {
    long now = now();
    touch(w);
    release(w);
    w.state = WorkloadState.PENDING;
    w.flavors = null;
    w.counts = null;
    w.usage = FrAmounts.EMPTY;
    w.startedAtMs = Workload.UNSET_TIME;
    w.setCondition(ConditionType.QUOTA_RESERVED, false, "Pending", "Evicted: " + w.evictionReason, now);
    w.setCondition(ConditionType.ADMITTED, false, "NoReservation", "The workload has no reservation", now);
    w.conditions.remove(ConditionType.PODS_READY);
    w.queueTs = queueOrderTimestamp(w);
    requeueAfterEviction(w, now);
    notifyRequeue(w.cq);
  }

  /**
   * Where an evicted workload goes once its pods are gone. Kueue's job reconciler sets Requeued=True for
   * Preempted and NodeFailures; for PodsReadyTimeout it holds the workload (Requeued=False) until the
   * requeuing backoff expires, or deactivates it past backoffLimitCount; ClusterQueueStopped and
   * LocalQueueStopped wait for the queue to restart.
   */
  private void requeueAfterEviction(Workload w, long now) {
    String reason = w.evictionReason;
    if ("PodsReadyTimeout".equals(reason)) {
      var wfpr = config.waitForPodsReady();
      w.podsReadyRequeues++;
      if (wfpr.backoffLimitCount() >= 0 && w.podsReadyRequeues > wfpr.backoffLimitCount()) {
        w.state = WorkloadState.DEACTIVATED;
        w.setCondition(ConditionType.REQUEUED, false, "RequeuingLimitExceeded",
            "The workload is deactivated: requeuing limit exceeded", now);
        w.pendingReason = "Deactivated";
        w.pendingMessage = "requeuing limit exceeded after " + (w.podsReadyRequeues - 1) + " PodsReady timeouts";
        return;
      }
      w.requeueAtMs = now + Backoff.exponential(wfpr.backoffBaseMs(), wfpr.backoffMaxMs(), w.podsReadyRequeues);
      w.requeueHeld = true;
      w.setCondition(ConditionType.REQUEUED, false, "PodsReadyTimeout", "Requeued after the backoff", now);
      w.cq.pushInadmissible(w);
      host.scheduleBackoffExpiry(w, w.requeueAtMs);
      return;
    }
    w.checks.clear(); // Kueue resets the checks to Pending on eviction; a new reservation lists them again
    if ("AdmissionCheck".equals(reason)) {
      w.requeueAtMs = w.evictedAtMs + w.checkRequeueAfterMs;
      w.requeueHeld = now < w.requeueAtMs;
      w.setCondition(ConditionType.REQUEUED, !w.requeueHeld, "AdmissionCheck", "Requeued after the check's backoff",
          now);
      if (w.requeueHeld) {
        w.cq.pushInadmissible(w);
        host.scheduleBackoffExpiry(w, w.requeueAtMs);
      } else {
        w.cq.pushActive(w);
      }
      return;
    }
    if ("DeactivatedDueToAdmissionCheck".equals(reason)) {
      w.state = WorkloadState.DEACTIVATED;
      w.pendingReason = "Deactivated";
      w.pendingMessage = "an admission check rejected the workload";
      return;
    }
    boolean stopped = "ClusterQueueStopped".equals(reason) || "LocalQueueStopped".equals(reason);
    w.setCondition(ConditionType.REQUEUED, !stopped, reason, "Requeued after eviction", now);
    if (lifecycle.isHeld(w.spec.localQueue())) {
      w.requeueHeld = stopped;
      lifecycle.hold(w);
      return;
    }
    if ("ClusterQueueStopped".equals(reason) && !w.cq.active) {
      w.requeueHeld = true;
      w.cq.pushInadmissible(w);
      return;
    }
    w.cq.pushActive(w);
  }

  /** The requeuing backoff ended: Requeued=True (BackoffFinished) and the workload competes again. */
  public void backoffFinished(Workload w) {
    if (w.state != WorkloadState.PENDING || !w.requeueHeld || now() < w.requeueAtMs) {
      return;
    }
    w.requeueHeld = false;
    w.setCondition(ConditionType.REQUEUED, true, "BackoffFinished", "The backoff expired", now());
    if (w.inadmissible) {
      w.cq.pushActive(w);
    }
    touch(w);
  }

  /** A pod of a running workload failed: PodsReady=False until replacements run (waitForPodsReady recovery). */
  public void podsNotReady(Workload w) {
    requireLive(w, "podsNotReady");
    if (w.state == WorkloadState.RUNNING) {
      w.state = WorkloadState.RESERVED;
      w.startedAtMs = Workload.UNSET_TIME;
      w.setCondition(ConditionType.PODS_READY, false, "WaitForRecovery", "At least one pod has failed", now());
      touch(w);
    }
  }

  /** waitForPodsReady: the workload's pods were not ready in time; evict it with PodsReadyTimeout. */
  public void podsReadyTimeout(Workload w, boolean recovery) {
    if (w.state != WorkloadState.RESERVED) {
      return;
    }
    long t = recovery ? config.waitForPodsReady().recoveryTimeoutMs() : config.waitForPodsReady().timeoutMs();
    evict(w, "PodsReadyTimeout", null, "Exceeded the PodsReady timeout " + batchsim.core.model.Durations.format(t));
  }

  /** The owner deleted the workload: it leaves its queue, or releases its quota. */
  public void delete(Workload w) {
    if (!requireLive(w, "delete")) {
      return;
    }
    if (w.holdsQuota()) {
      release(w);
    } else {
      w.cq.forget(w);
      lifecycle.release(w);
    }
    w.state = WorkloadState.DELETED;
    w.finishedAtMs = now();
    touch(w);
    notifyRequeue(w.cq);
  }

  /** Records an operation on a workload that is gone; returns whether the workload is live. */
  private boolean requireLive(Workload w, String op) {
    if (w.state == WorkloadState.FINISHED || w.state == WorkloadState.DELETED || w.state == WorkloadState.REJECTED
        || w.state == WorkloadState.DEACTIVATED) {
      operationViolations.add(op + " on " + w.state + " workload " + w.id());
      return false;
    }
    return true;
  }

  /** Violations of "no operation on a deleted queue or workload" since the last call. */
  public List<String> takeOperationViolations() {
    List<String> out = new ArrayList<>(operationViolations);
    operationViolations.clear();
    return out;
  }

  // ------------------------------------------------------------------ queue changes

  public void setQuota(String cq, String flavor, String resource, batchsim.core.model.QuotaSpec quota) {
    ClusterQueue q = queuesByName.get(cq);
    int fr = index.fr(index.flavorIndex(flavor), index.resources().require(resource));
    lifecycle.setQuota(q, fr, quota);
    // Usage above a lowered quota is legal (Kueue never evicts for a quota change); it may only drain.
    tolerateExcess();
  }

  public void setPreemption(String cq, batchsim.core.model.PreemptionSpec p) {
    lifecycle.setPreemption(queuesByName.get(cq), p);
  }

  public void stopClusterQueue(String cq, batchsim.core.model.ClusterAction.StopPolicy policy) {
    lifecycle.stopClusterQueue(queuesByName.get(cq), policy);
  }

  public void deleteClusterQueue(String cq) {
    lifecycle.deleteClusterQueue(queuesByName.get(cq));
  }

  public void stopLocalQueue(String lq, batchsim.core.model.ClusterAction.StopPolicy policy) {
    lifecycle.stopLocalQueue(lq, policy, false);
  }

  public void deleteLocalQueue(String lq) {
    lifecycle.stopLocalQueue(lq, batchsim.core.model.ClusterAction.StopPolicy.HOLD, true);
  }

  /** Recomputes subtree quotas (and cohort usage) of the tree a ClusterQueue belongs to. */
  void recomputeTree(ClusterQueue q) {
    if (q.parent == null) {
      System.arraycopy(q.nominal, 0, q.subtreeQuota, 0, index.size());
    } else {
      computeSubtree(q.root());
    }
  }

  /**
   * Kueue Ordering.GetQueueOrderTimestamp (pkg/workload/workload.go): the Evicted time after a PodsReadyTimeout
   * eviction (only with requeuingStrategy.timestamp = Eviction) or an AdmissionCheck eviction; with
   * PrioritySortingWithinCohort off, the Preempted time + 1 ms after InCohortReclaimWhileBorrowing; else the
   * creation time. The times are the conditions' last transition times.
   */
  long queueOrderTimestamp(Workload w) {
    Condition evicted = w.conditions.get(ConditionType.EVICTED);
    if (evicted != null && evicted.status()) {
      if (config.podsReadyRequeuingTimestamp() == RequeuingTimestamp.EVICTION
          && "PodsReadyTimeout".equals(evicted.reason())) {
        return evicted.timeMs();
      }
      if ("AdmissionCheck".equals(evicted.reason())) {
        return evicted.timeMs();
      }
    }
    if (!config.prioritySortingWithinCohort()) {
      Condition preempted = w.conditions.get(ConditionType.PREEMPTED);
      if (preempted != null && preempted.status() && "InCohortReclaimWhileBorrowing".equals(preempted.reason())) {
        return preempted.timeMs() + 1;
      }
    }
    return w.createdMs;
  }

  // ------------------------------------------------------------------ inadmissible requeue

  /** Kueue QueueAssociatedInadmissibleWorkloadsAfter: retry the tree's parked workloads after the batch delay. */
  void notifyRequeue(ClusterQueue q) {
    QuotaNode root = q.hasParent() ? q.root() : q;
    boolean first = requeueRoots.isEmpty();
    requeueRoots.add(root);
    if (first) {
      host.scheduleInadmissibleRequeue(now() + config.inadmissibleRequeueDelayMs());
    }
  }

  /** Moves the parked workloads of every notified tree back to their active heaps. */
  public int processInadmissibleRequeues() {
    int moved = 0;
    List<QuotaNode> roots = new ArrayList<>(requeueRoots);
    requeueRoots.clear();
    long now = now();
    for (QuotaNode r : roots) {
      List<ClusterQueue> qs = r instanceof Cohort c ? c.subtreeQueues() : List.of((ClusterQueue) r);
      for (ClusterQueue q : qs) {
        moved += q.queueInadmissible(now);
      }
    }
    return moved;
  }

  // ------------------------------------------------------------------ topology aware scheduling

  /**
   * [TAS] Builds the topology trees of the TAS flavors (those with {@code topologyName}) from the Topology
   * objects and the cluster's nodes, all Ready. Call once, before the first cycle.
   */
  public void configureTopologies(List<batchsim.core.model.TopologySpec> topologies,
      List<batchsim.core.kueue.tas.TasNode> nodes) {
    tas.configure(topologies, nodes);
  }

  /** [TAS] The delayed topology was placed by a second pass: Admitted, as its last check's Ready would. */
  void admitAfterDelayedTopology(Workload w) {
    long now = now();
    w.admittedAtMs = now;
    w.setCondition(ConditionType.ADMITTED, true, "Admitted", "The workload is admitted", now);
    event(w, "Admitted", "Normal");
    host.onAdmitted(w);
  }

  /**
   * [TAS] Kueue's DelayedTopologyRequest of a podSet of a workload holding quota: "Pending" (placement waits
   * for the ProvisioningRequest check), "Ready" (placed since), or null (never delayed).
   */
  public String delayedTopologyRequest(Workload w, int podSet) {
    return tas.delayedTopologyRequest(w, podSet);
  }

  /** [TAS] Whether any flavor is a TAS flavor. */
  public boolean tasEnabled() {
    return tas.enabled();
  }

  /** [TAS] A node joined the cluster (Ready): it joins the trees of the TAS flavors it matches. */
  public void nodeAdded(batchsim.core.kueue.tas.TasNode node) {
    tas.addNode(node, true);
  }

  /**
   * [TAS] A node failed (NotReady with its pods terminated, deleted or drained): it leaves the TAS trees,
   * and every TAS workload with pods assigned there that holds quota and is not evicted marks it as its
   * unhealthy node and goes to the second-pass queue (first attempt after 1 s), where only the failed
   * node's pods are placed again, within the required domain and without preemption. A workload that
   * already has another unhealthy node is evicted at once (reason NodeFailures); one whose replacement
   * search fails is evicted too (TASFailedNodeReplacementFailFast).
   */
  public void nodeFailed(String node) {
    tas.nodeFailed(node);
  }

  /** [TAS] The node is Ready again: it rejoins the trees; workloads not yet repaired forget it as unhealthy. */
  public void nodeRecovered(String node) {
    tas.nodeRecovered(node);
  }

  /** [TAS] Cordon (false) or uncordon (true): Kueue keeps unschedulable nodes out of the TAS trees. */
  public void nodeSchedulable(String node, boolean schedulable) {
    tas.setNodePresent(node, schedulable);
  }

  /**
   * [TAS] A pod that does not follow a topology assignment was bound to (+1) or released from (-1) a node:
   * Kueue's non-TAS usage, which reduces the free capacity of the TAS trees containing the node. (Pods placed
   * by a topology assignment are counted through the assignment; do not report them.)
   */
  public void podOnNode(Workload owner, String node, long[] request, int sign) {
    tas.nonTasPod(owner, node, request, sign);
  }

  /** [TAS] Whether the workload holds a topology assignment (its pods go to the assigned nodes). */
  public boolean hasTopologyAssignment(Workload w) {
    return tas.hasAssignment(w);
  }

  /** [TAS] The workload's topology assignment: per podSet, per leaf domain, its nodes and pod count. */
  public List<batchsim.core.kueue.tas.TasPlacement> topologyPlacement(Workload w) {
    return tas.placement(w);
  }

  /** [TAS] The workload's unhealthy node awaiting replacement, or null. */
  public String unhealthyNode(Workload w) {
    return tas.unhealthyNode(w);
  }

  /** [TAS] The trees of the TAS flavors, in flavor-name order (metrics). */
  public List<batchsim.core.kueue.tas.TasFlavorSnapshot> topologySnapshots() {
    return tas.snapshots();
  }

  /** [TAS] Unhealthy nodes replaced by a second pass so far. */
  public int nodeRepairs() {
    return tas.repairs;
  }

  /** [TAS] Evictions with reason NodeFailures so far (second failed node, or no replacement). */
  public int nodeFailureEvictions() {
    return tas.nodeFailureEvictions;
  }

  // ------------------------------------------------------------------ cycle

  /** Runs one scheduling cycle. Returns what it did, so the caller can decide whether to run another. */
  public Scheduler.CycleOutcome runCycle() {
    return scheduler.schedule();
  }

  // ------------------------------------------------------------------ inspection

  public List<String> clusterQueueNames() {
    return new ArrayList<>(queuesByName.keySet());
  }

  public boolean hasClusterQueue(String name) {
    return queuesByName.containsKey(name);
  }

  /** Workloads holding quota, per ClusterQueue in declaration order. */
  public List<Workload> reservedWorkloads() {
    List<Workload> out = new ArrayList<>();
    for (ClusterQueue q : queues) {
      out.addAll(q.admitted);
    }
    return out;
  }

  public List<Workload> activePending(String cq) {
    return new ArrayList<>(queuesByName.get(cq).heap);
  }

  public List<Workload> inadmissiblePending(String cq) {
    return new ArrayList<>(queuesByName.get(cq).inadmissibleSet);
  }

  public int pendingCount(String cq) {
    return queuesByName.get(cq).pendingCount();
  }

  /** Current usage of a ClusterQueue on a flavor/resource, base units. */
  public long usage(String cq, int flavor, int resource) {
    return queuesByName.get(cq).usage[index.fr(flavor, resource)];
  }

  /**
   * Kueue's weighted dominant resource share of a ClusterQueue (borrowed per 1000 of what its cohort could
   * lend, over the weight); 0 outside a cohort or when not borrowing. Infinite for a zero weight that borrows.
   */
  public double share(String cq) {
    return Drs.of(queuesByName.get(cq), null, index).weightedShare();
  }

  public long nominal(String cq, int flavor, int resource) {
    return queuesByName.get(cq).nominal[index.fr(flavor, resource)];
  }

  /** Usage of the cohort named, base units (for invariant checks). */
  public long cohortUsage(String cohort, int fr) {
    return cohorts.get(cohort).usage[fr];
  }

  public List<String> cohortNames() {
    return Collections.unmodifiableList(new ArrayList<>(cohorts.keySet()));
  }

  /**
   * Kueue's admission_cycle_preemption_skips gauge for the last cycle: per ClusterQueue, the entries that
   * needed preemption (or had preemption targets) but were skipped because another entry took the quota
   * or the targets first. ClusterQueues with no skip are absent.
   */
  public Map<String, Integer> skippedPreemptions() {
    return Collections.unmodifiableMap(skippedPreemptions);
  }

  private boolean keepHistory;

  /** Keeps every workload's condition changes (the decision log behind {@code batchsim explain}). */
  public void keepHistory(boolean on) {
    keepHistory = on;
  }

  /** Records Kueue events ("workload reason type") for conformance checks. */
  public void recordEvents(boolean on) {
    recordEvents = on;
  }

  public List<String> events() {
    return events;
  }

  void event(Workload w, String reason, String type) {
    if (recordEvents) {
      events.add(w.id() + " " + reason + " " + type);
    }
  }

  void touch(Workload w) {
    if (trackTouched) {
      touched.add(w);
    }
  }

  /** Turns on tracking of changed workloads for {@link #checkTouchedWorkloads()}. */
  public void trackChanges(boolean on) {
    trackTouched = on;
    touched.clear();
  }

  /**
   * Checks that every workload changed since the last call is in exactly one lifecycle state and in the
   * structures that state implies: a pending workload in exactly one of its queue's active heap or
   * inadmissible set, a workload holding quota in its queue's admitted set and nowhere else, a finished
   * one nowhere. Returns the violations (empty when clean) and forgets the changed set.
   */
  public List<String> checkTouchedWorkloads() {
    List<String> out = new ArrayList<>();
    for (Workload w : touched) {
      boolean admitted = w.cq.admitted.contains(w);
      boolean heap = w.inHeap && w.cq.heap.contains(w);
      boolean parked = w.inadmissible && w.cq.inadmissibleSet.contains(w);
      boolean held = lifecycle.isHeld(w);
      String where = "heap=" + heap + " inadmissible=" + parked + " held=" + held + " admitted=" + admitted;
      if (tas.inSecondPassQueue(w) && (!w.holdsQuota() || w.isEvicted())) {
        out.add("workload " + w.id() + " is queued for a second pass while " + w.state
            + (w.isEvicted() ? " (evicted)" : "") + ": only workloads holding quota, neither finished nor evicted, may");
      }
      switch (w.state) {
        case PENDING -> {
          if ((heap ? 1 : 0) + (parked ? 1 : 0) + (held ? 1 : 0) != 1 || admitted) {
            out.add("workload " + w.id() + " is PENDING but " + where);
          }
        }
        case RESERVED, RUNNING, EVICTING -> {
          if (!admitted || heap || parked || w.inHeap || w.inadmissible) {
            out.add("workload " + w.id() + " is " + w.state + " but " + where);
          }
          if (w.state == WorkloadState.EVICTING && !w.isEvicted()) {
            out.add("workload " + w.id() + " is EVICTING without an Evicted=True condition");
          }
          if (w.state == WorkloadState.RUNNING && w.startedAtMs == Workload.UNSET_TIME) {
            out.add("workload " + w.id() + " is RUNNING without a start time");
          }
        }
        case FINISHED, REJECTED, DELETED, DEACTIVATED -> {
          if (admitted || heap || parked || held || w.inHeap || w.inadmissible) {
            out.add("workload " + w.id() + " is " + w.state + " but " + where);
          }
        }
      }
    }
    touched.clear();
    return out;
  }

  /**
   * Checks the quota invariants on every node of every tree:
   *
   * <ul>
   *   <li>each ClusterQueue's cached usage equals the sum of its admitted workloads, and is never negative;
   *   <li>each cohort's cached usage equals what its children push up (usage above their local quota);
   *   <li>the committed usage (every workload holding quota except those being evicted) stays within
   *       nominal + borrowingLimit on every queue and cohort, and within the subtree quota at each root.
   * </ul>
   *
   * Workloads being evicted are left out of the limit checks because Kueue may already reserve their
   * quota for another head in the same cycle (scheduler.go fits() simulates the removal of every victim
   * chosen so far), so a cohort can briefly hold more than its quota until the victims' pods are gone.
   * Returns the violations found (empty when clean).
   */
  public List<String> checkQuotaInvariants() {
    List<String> out = new ArrayList<>();
    int frs = index.size();
    Map<QuotaNode, long[]> committed = committedUsage();
    for (ClusterQueue q : queues) {
      long[] all = new long[frs];
      for (Workload w : q.admitted) {
        for (int i = 0; i < w.usage.frs.length; i++) {
          all[w.usage.frs[i]] += w.usage.amounts[i];
        }
      }
      long[] live = committed.get(q);
      for (int fr = 0; fr < frs; fr++) {
        if (q.usage[fr] != all[fr] || q.usage[fr] < 0) {
          out.add("ClusterQueue " + q.name + " caches usage " + q.usage[fr] + " of " + frName(fr)
              + " but its admitted workloads use " + all[fr]);
        }
        checkLimit(out, q, fr, live[fr]);
      }
    }
    for (Cohort c : cohorts.values()) {
      long[] live = committed.get(c);
      for (int fr = 0; fr < frs; fr++) {
        long expected = 0;
        for (Cohort ch : c.childCohorts) {
          expected += Math.max(0, ch.usage[fr] - ch.localQuota(fr));
        }
        for (ClusterQueue ch : c.childQueues) {
          expected += Math.max(0, ch.usage[fr] - ch.localQuota(fr));
        }
        if (expected != c.usage[fr]) {
          out.add("Cohort " + c.name + " usage of " + frName(fr) + " is " + c.usage[fr] + " but its children push "
              + expected);
        }
        checkLimit(out, c, fr, live[fr]);
      }
    }
    out.addAll(tas.checkInvariants()); // [TAS] per-domain usage equals the admitted assignments
    return out;
  }

  /** Usage of every node counting only workloads that hold quota and are not being evicted. */
  private Map<QuotaNode, long[]> committedUsage() {
    int frs = index.size();
    Map<QuotaNode, long[]> committed = new java.util.IdentityHashMap<>();
    for (ClusterQueue q : queues) {
      long[] live = new long[frs];
      for (Workload w : q.admitted) {
        if (w.state != WorkloadState.EVICTING) {
          for (int i = 0; i < w.usage.frs.length; i++) {
            live[w.usage.frs[i]] += w.usage.amounts[i];
          }
        }
      }
      committed.put(q, live);
    }
    for (Cohort c : cohorts.values()) {
      if (c.parent == null) {
        committedUsage(c, committed);
      }
    }
    return committed;
  }

  /** Kueue's push-up rule applied to committed usage: a cohort holds what its children use above local quota. */
  private long[] committedUsage(Cohort c, Map<QuotaNode, long[]> committed) {
    long[] sum = new long[index.size()];
    List<QuotaNode> children = new ArrayList<>(c.childCohorts);
    children.addAll(c.childQueues);
    for (QuotaNode ch : children) {
      long[] u = ch instanceof Cohort cc ? committedUsage(cc, committed) : committed.get(ch);
      for (int fr = 0; fr < sum.length; fr++) {
        sum[fr] += Math.max(0, u[fr] - ch.localQuota(fr));
      }
    }
    committed.put(c, sum);
    return sum;
  }

  /** Excess above a limit that a quota change created, per node and fr; it may only shrink. */
  private final Map<QuotaNode, long[]> toleratedExcess = new java.util.IdentityHashMap<>();

  /** The limit a node's committed usage must respect, or -1 when none applies. */
  private static long limit(QuotaNode n, int fr) {
    if (!n.hasParent()) {
      return n.subtreeQuota[fr];
    }
    return n.borrowingLimit[fr] == QuotaNode.NO_LIMIT ? -1 : n.subtreeQuota[fr] + n.borrowingLimit[fr];
  }

  /** After a quota change: usage already above the new limit is legal until it drains (Kueue never evicts for it). */
  private void tolerateExcess() {
    Map<QuotaNode, long[]> committed = committedUsage();
    committed.forEach((n, live) -> {
      for (int fr = 0; fr < live.length; fr++) {
        long lim = limit(n, fr);
        if (lim >= 0 && live[fr] > lim) {
          toleratedExcess.computeIfAbsent(n, k -> new long[index.size()])[fr] = live[fr] - lim;
        }
      }
    });
  }

  private void checkLimit(List<String> out, QuotaNode n, int fr, long live) {
    long lim = limit(n, fr);
    if (lim < 0) {
      return;
    }
    long[] tol = toleratedExcess.get(n);
    long allowed = tol == null ? 0 : tol[fr];
    long excess = live - lim;
    if (excess > allowed) {
      String kind = n.isClusterQueue() ? "ClusterQueue " : "Cohort ";
      out.add(kind + n.name + " holds " + live + " of " + frName(fr) + " (excluding workloads being evicted), above "
          + (n.hasParent() ? "its quota + borrowingLimit " : n.isClusterQueue() ? "its nominal " : "its subtree quota ")
          + lim);
    } else if (tol != null) {
      tol[fr] = Math.min(allowed, Math.max(0, excess));
    }
  }


  private String frName(int fr) {
    return index.flavorName(index.flavorOf(fr)) + "/" + index.resourceName(fr);
  }
}
