package batchsim.scenarios.eta;

import batchsim.core.kueue.Workload;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.Durations;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.sim.Simulation;
import batchsim.core.world.kueue.KueueAdmission;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One replica: the scenario played with one seed until every asked-about workload has started (the world's
 * stop hook), watching the asked workloads' pending reasons, the finishes before each one's reservation and
 * the workloads its ClusterQueue preempted just before.
 */
final class EtaReplica {
  /** Finishes this close before a reservation count as the release that let it in (Kueue requeues in 1 s batches). */
  private static final long RELEASE_WINDOW_MS = 1_000;
  /** Cycles between a victim's quota release and the preemptor's reservation. */
  private static final long PREEMPTION_SLACK_MS = 2_000;

  /**
   * What happened to one asked workload in one replica (times in ms from t = 0, {@link WorkloadRecord#NEVER}
   * when not reached before the run ended).
   *
   * @param pendingAtSnapshot Kueue's reason and message for it at the end of t = 0 ({@code ["", ""]}: it got
   *     quota at t = 0)
   * @param lastPending its last pending reason and message before it got quota
   * @param releasedBy the workloads whose finish let it in (the last finishes in its cohort before it got quota)
   * @param preempted the workloads its ClusterQueue preempted to make room for it
   */
  record Outcome(String id, String clusterQueue, long reservedMs, long admittedMs, long startedMs,
      String[] pendingAtSnapshot, String[] lastPending, List<String> releasedBy, List<String> preempted) {}

  private record Finish(String id, String group, long atMs) {}

  private final SimulationSpec spec;
  private final List<String> ids;
  private final Map<String, String> groupOf = new HashMap<>(); // ClusterQueue -> its root cohort (or itself)
  private final List<Finish> finishes = new ArrayList<>();
  private final Map<String, WorkloadRecord> records = new HashMap<>();
  private Workload[] watched;
  private final Map<String, String[]> atSnapshot = new HashMap<>();
  private final Map<String, String[]> lastPending = new HashMap<>();
  private final Map<String, List<String>> victims = new HashMap<>();
  private KueueAdmission kueue;

  private EtaReplica(SimulationSpec spec, List<String> ids) {
    this.spec = spec;
    this.ids = ids;
    Map<String, String> parent = new HashMap<>();
    spec.cohorts().forEach(c -> parent.put(c.name(), c.parent()));
    for (ClusterQueueSpec q : spec.clusterQueues()) {
      String g = q.cohort();
      while (g != null && parent.get(g) != null) {
        g = parent.get(g);
      }
      groupOf.put(q.name(), g == null ? "cq/" + q.name() : "cohort/" + g);
    }
  }

  /** Plays {@code spec} (with its seed) until the workloads {@code ids} have all started, or to its end. */
  static List<Outcome> play(SimulationSpec spec, List<String> ids) {
    return new EtaReplica(spec, ids).run();
  }

  private List<Outcome> run() {
    Simulation sim = new Simulation(spec).streamWorkloads((seq, r, decisions) -> {
      if (ids.contains(r.id())) {
        records.put(r.id(), r);
      } else if (r.finishedMs() != WorkloadRecord.NEVER && r.clusterQueue() != null) {
        finishes.add(new Finish(r.id(), groupOf.get(r.clusterQueue()), r.finishedMs()));
      }
    });
    kueue = (KueueAdmission) sim.world().engine();
    sim.world().stopWhen(this::allStarted);
    sim.run();
    List<Outcome> out = new ArrayList<>();
    for (String id : ids) {
      WorkloadRecord r = records.get(id);
      long reserved = r == null ? WorkloadRecord.NEVER : r.quotaReservedMs(); // the reservation it started with
      String[] none = {"", ""};
      String[] last = lastPending.getOrDefault(id, r == null ? none : new String[] {"", r.lastMessage()});
      out.add(new Outcome(id, r == null ? null : r.clusterQueue(), reserved,
          r == null ? WorkloadRecord.NEVER : r.admittedMs(), r == null ? WorkloadRecord.NEVER : r.startedMs(),
          atSnapshot.getOrDefault(id, last), last, releasedBy(r, reserved), victims.getOrDefault(id, List.of())));
    }
    return out;
  }

  /** The stop hook: before each event at {@code nowMs}, whether every asked workload has started. */
  private boolean allStarted(long nowMs) {
    if (watched == null) {
      if (nowMs <= 0) {
        return false; // t = 0's arrivals and cycles first
      }
      watch(nowMs);
    }
    boolean all = true;
    for (int i = 0; i < watched.length; i++) {
      Workload w = watched[i];
      if (w == null) {
        continue;
      }
      if (!w.holdingQuota() && !w.pendingMessage().isEmpty()) {
        lastPending.put(ids.get(i), new String[] {w.pendingReason(), w.pendingMessage()});
      }
      if (w.startedAtMs() == Workload.UNSET_TIME) {
        all = false;
      }
    }
    if (all) {
      findVictims();
    }
    return all;
  }

  /** Finds the asked workloads once t = 0 is over (before the event at {@code nowMs}), and what they wait for. */
  private void watch(long nowMs) {
    Map<String, Workload> byId = new LinkedHashMap<>();
    for (Workload w : kueue.liveWorkloads()) {
      if (ids.contains(w.id())) {
        byId.put(w.id(), w);
      }
    }
    watched = new Workload[ids.size()];
    for (int i = 0; i < ids.size(); i++) {
      Workload w = byId.get(ids.get(i));
      watched[i] = w;
      if (w != null) {
        atSnapshot.put(ids.get(i), w.reservedAtMs() != Workload.UNSET_TIME ? new String[] {"", ""}
            : !w.pendingMessage().isEmpty() ? new String[] {w.pendingReason(), w.pendingMessage()}
            : w.requeueAtMs() >= nowMs ? new String[] {"", "in its requeue backoff after an eviction until +"
                + Durations.format(w.requeueAtMs()) + " (requeueState.requeueAt)"}
            : new String[] {"", "queued, not yet tried: " + kueue.kueue().pendingCount(w.clusterQueueName())
                + " workloads pending in ClusterQueue " + w.clusterQueueName()});
      }
    }
  }

  /**
   * Workloads evicted in the run by Preempted on behalf of an asked workload's ClusterQueue, shortly enough
   * before it got quota that their release made its room (their grace period plus a few cycles).
   */
  private void findVictims() {
    for (Workload v : kueue.liveWorkloads()) {
      if (v.evictedAtMs() < 0 || !"Preempted".equals(v.evictionReason()) || v.preemptingClusterQueue() == null) {
        continue;
      }
      long grace = v.spec().terminationGraceMs() == WorkloadSpec.SCENARIO_GRACE ? spec.kueue().terminationGraceMs()
          : v.spec().terminationGraceMs();
      for (int i = 0; i < watched.length; i++) {
        Workload w = watched[i];
        if (w != null && w != v && w.clusterQueueName().equals(v.preemptingClusterQueue())
            && v.evictedAtMs() <= w.reservedAtMs() && w.reservedAtMs() - v.evictedAtMs() <= grace
            + PREEMPTION_SLACK_MS) {
          victims.computeIfAbsent(ids.get(i), k -> new ArrayList<>()).add(v.id());
          break; // the first asked workload of that queue to get in after the eviction
        }
      }
    }
  }

  /** The last finishes in the workload's cohort (or ClusterQueue) before it got quota after waiting. */
  private List<String> releasedBy(WorkloadRecord r, long reservedMs) {
    if (r == null || reservedMs == WorkloadRecord.NEVER || reservedMs <= 0 || r.clusterQueue() == null) {
      return List.of();
    }
    String group = groupOf.get(r.clusterQueue());
    long last = Long.MIN_VALUE;
    for (Finish f : finishes) {
      if (f.group().equals(group) && f.atMs() <= reservedMs) {
        last = Math.max(last, f.atMs());
      }
    }
    List<String> out = new ArrayList<>();
    for (Finish f : finishes) {
      if (f.group().equals(group) && f.atMs() <= reservedMs && f.atMs() >= last - RELEASE_WINDOW_MS) {
        out.add(f.id());
      }
    }
    return out;
  }
}
