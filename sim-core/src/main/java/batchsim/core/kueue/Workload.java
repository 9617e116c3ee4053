package batchsim.core.kueue;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.EnumMap;
import java.util.Map;

/**
 * The engine's mutable view of one workload: its lifecycle state, its admission (flavors, counts and
 * quota usage), its Kueue conditions, and its place in its ClusterQueue's queue.
 */
public final class Workload {
  /** Marks an unset creation timestamp, which Kueue sorts before any set time. */
  public static final long UNSET_TIME = Long.MIN_VALUE;

  /** Replaced when a timeline action moves it or changes its priority (see {@link WorkloadEdits}). */
  WorkloadSpec spec;
  final long seq;
  /** Kueue UID, compared as a string for the final tie-breaks; null sorts as "". */
  final String uid;
  ClusterQueue cq;
  int priority;
  final long createdMs;
  SchedulingShape shape;

  WorkloadState state = WorkloadState.PENDING;
  final Map<ConditionType, Condition> conditions = new EnumMap<>(ConditionType.class);

  // Admission (valid while the workload holds quota).
  int[][] flavors; // [podSet][resource] -> flavor index or -1
  int[] counts; // admitted pod count per podSet
  FrAmounts usage = FrAmounts.EMPTY;
  long reservedAtMs = UNSET_TIME;
  long firstReservedAtMs = UNSET_TIME;
  long admittedAtMs = UNSET_TIME;
  long startedAtMs = UNSET_TIME;
  long finishedAtMs = UNSET_TIME;

  // Eviction.
  String evictionReason; // Kueue Evicted reason, null if never evicted
  String preemptionReason; // Preempted sub-reason
  long evictedAtMs = UNSET_TIME;
  int evictions;
  int preemptions;
  /** The ClusterQueue of the workload that preempted this one last (Kueue preempting_cluster_queue). */
  String preemptingClusterQueue;

  // Queueing.
  /** Where it waits in its ClusterQueue (active or parked), null when not queued. */
  PendingWorkloads.Part part;
  /** When its own pending reason was written; a note on its part written later wins (see PendingWorkloads). */
  long pendingStamp;
  /** It joined its part while a requeuing backoff ran. */
  boolean joinedInBackoff;
  long queueTs; // queue-order timestamp, fixed while queued
  LastAssignment lastAssignment;
  /** Kueue requeueState.requeueAt, set at a PodsReadyTimeout or AdmissionCheck eviction. */
  long requeueAtMs = UNSET_TIME;
  /** Requeued=False: held out of the heap until a backoff expires or a stopped queue resumes. */
  boolean requeueHeld;
  /** Admission checks of the current reservation (name → state); empty when none apply. */
  final java.util.LinkedHashMap<String, CheckState> checks = new java.util.LinkedHashMap<>();
  /** Kueue spec.active=false set while the workload still holds quota: it is deactivated once its pods are gone. */
  boolean inactive;
  /** Evictions for PodsReadyTimeout so far (Kueue requeueState.count; cleared on deactivation). */
  int podsReadyRequeues;
  String pendingReason = "";
  String pendingMessage = "";

  // Elastic jobs (workload slices, see WorkloadSlices).
  /** The admitted slice this one is to replace (Kueue workload-slice-replacement-for), until it is replaced. */
  Workload replacementFor;
  /** The newer slice made to replace this one, or null. */
  Workload replacement;
  /** The job's first slice's name (Kueue workload-slice-name annotation), null for a job never scaled up. */
  String sliceName;
  /** Its place in the job's chain of slices (the first is 1). */
  int sliceIndex = 1;

  /** Simulation-owned data (pods, nodes); the Kueue engine never reads it. */
  public Object runtime;

  Workload(WorkloadSpec spec, long seq, String uid, ClusterQueue cq, int priority, long createdMs) {
    this.spec = spec;
    this.seq = seq;
    this.uid = uid;
    this.cq = cq;
    this.priority = priority;
    this.createdMs = createdMs;
    this.shape = new SchedulingShape(priority, spec.podSets());
  }

  public WorkloadSpec spec() {
    return spec;
  }

  public String id() {
    return spec.id();
  }

  /** The job's name: its first slice's id (an elastic job's later slices are named after it). */
  public String jobName() {
    return sliceName == null ? spec.id() : sliceName;
  }

  /** The newest slice of this workload's job (itself unless a scale-up made another). */
  public Workload latestSlice() {
    Workload w = this;
    while (w.replacement != null) {
      w = w.replacement;
    }
    return w;
  }

  /** The slice this one replaces while that one still exists (Kueue workload-slice-replacement-for), or null. */
  public Workload replacementFor() {
    return replacementFor;
  }

  public int priority() {
    return priority;
  }

  public long createdMs() {
    return createdMs;
  }

  public WorkloadState state() {
    return state;
  }

  /** Kueue spec.active: false once deactivated (backoffLimitCount exceeded, an admission check rejected it). */
  public boolean active() {
    return state != WorkloadState.DEACTIVATED && !inactive;
  }

  /** Kueue requeueState.count. */
  public int requeueCount() {
    return podsReadyRequeues;
  }

  /** Kueue requeueState.requeueAt, or {@link #UNSET_TIME}. */
  public long requeueAtMs() {
    return requeueAtMs;
  }

  public String clusterQueueName() {
    return cq == null ? null : cq.name;
  }

  public long reservedAtMs() {
    return reservedAtMs;
  }

  public long firstReservedAtMs() {
    return firstReservedAtMs;
  }

  public long admittedAtMs() {
    return admittedAtMs;
  }

  public long startedAtMs() {
    return startedAtMs;
  }

  public long finishedAtMs() {
    return finishedAtMs;
  }

  public int evictions() {
    return evictions;
  }

  public int preemptions() {
    return preemptions;
  }

  /** Virtual time of the last eviction, or {@link #UNSET_TIME}. */
  public long evictedAtMs() {
    return evictedAtMs;
  }

  public String evictionReason() {
    return evictionReason;
  }

  public String preemptionReason() {
    return preemptionReason;
  }

  /** The ClusterQueue of the last preemptor, or null if never preempted. */
  public String preemptingClusterQueue() {
    return preemptingClusterQueue;
  }

  /** Why it holds no quota (QuotaReserved=False's reason as last decided for it), "" when none. */
  public String pendingReason() {
    return noteOfPart() ? part.noteReason : pendingReason;
  }

  public String pendingMessage() {
    return noteOfPart() ? part.noteMessage : pendingMessage;
  }

  /** Its part was parked with a reason after its own was written (Kueue parked its whole shape). */
  private boolean noteOfPart() {
    return part != null && part.noteStamp > pendingStamp;
  }

  /** Writes its own pending reason and message (newer than any note on its part). */
  void setPending(String reason, String message) {
    pendingReason = reason;
    pendingMessage = message;
    if (part != null) {
      pendingStamp = part.owner.nextTick();
    }
  }

  /** Copies the reason it has now into its own fields (before it leaves its part). */
  void settlePending() {
    if (noteOfPart()) {
      pendingReason = part.noteReason;
      pendingMessage = part.noteMessage;
    }
  }

  /** Waiting in its ClusterQueue's active heap or inadmissible set (Kueue counts it as pending). */
  public boolean queued() {
    return part != null;
  }

  /** In its ClusterQueue's active heap. */
  boolean inHeap() {
    return part != null && !part.parked;
  }

  /** In its ClusterQueue's inadmissible set. */
  boolean inadmissible() {
    return part != null && part.parked;
  }

  /** Whether the workload holds quota (reserved, running or evicting). */
  public boolean holdingQuota() {
    return holdsQuota();
  }

  /** Kueue status.admission is set: from quota reservation until the reservation is cleared (kept once finished). */
  public boolean hasAdmission() {
    return counts != null && flavors != null;
  }

  /** The admission checks of the current reservation and their states, in order (read only). */
  public java.util.Map<String, CheckState> checks() {
    return java.util.Collections.unmodifiableMap(checks);
  }

  /** The state of an admission check of the current reservation, or null. */
  public CheckState check(String name) {
    return checks.get(name);
  }

  /** True while quota is reserved but some admission check is not Ready yet. */
  public boolean waitingForChecks() {
    return state == WorkloadState.RESERVED && checks.containsValue(CheckState.PENDING);
  }

  public Condition condition(ConditionType t) {
    return conditions.get(t);
  }

  /** Admitted pod count of podSet i (partial admission may shrink it). */
  public int admittedCount(int podSet) {
    return counts[podSet];
  }

  /** The flavor index assigned to resource r of podSet i, or -1. */
  public int flavorOf(int podSet, int resource) {
    return flavors == null ? -1 : flavors[podSet][resource];
  }

  public PodSetSpec podSet(int i) {
    return spec.podSets().get(i);
  }

  boolean holdsQuota() {
    return state == WorkloadState.RESERVED || state == WorkloadState.RUNNING
        || state == WorkloadState.EVICTING;
  }

  boolean isEvicted() {
    Condition c = conditions.get(ConditionType.EVICTED);
    return c != null && c.status();
  }

  /** Its wait as far as the run's waiting-time split goes (null when nothing tracks it). */
  WaitingTime.Track waitTrack;

  /** Every condition change, when the run keeps a decision log; null otherwise. */
  java.util.List<Condition> history;

  /** The decision log of this workload (empty when the run keeps none). */
  public java.util.List<Condition> history() {
    return history == null ? java.util.List.of() : history;
  }

  /** Sets a condition; true when it changed (status, reason or message: Kueue patches the status only then). */
  boolean setCondition(ConditionType t, boolean status, String reason, String message, long now) {
    Condition old = conditions.get(t);
    boolean changed = old == null || old.status() != status || !old.reason().equals(reason)
        || !java.util.Objects.equals(old.message(), message);
    if (changed) {
      if (history != null) {
        history.add(new Condition(t, status, reason, message, now));
      }
      if (waitTrack != null) {
        waitTrack.owner.condition(this, t, status, reason, message, now);
      }
    }
    long time = old != null && old.status() == status ? old.timeMs() : now;
    conditions.put(t, new Condition(t, status, reason, message, time));
    if (t == ConditionType.QUOTA_RESERVED && !status && !conditions.containsKey(ConditionType.ADMITTED)) {
      // Kueue SyncAdmittedCondition (workload/admissionchecks.go; UnadmittedWorkloadsObservability, on by
      // default): once QuotaReserved is set, a workload without a reservation has Admitted=False.
      setCondition(ConditionType.ADMITTED, false, "NoReservation", "The workload has no reservation", now);
    }
    return changed;
  }

  /** Uses at least one of the given frs (Kueue WorkloadUsesResources). */
  boolean usesAny(int[] frs) {
    for (int fr : frs) {
      if (usage.uses(fr)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return id();
  }
}
