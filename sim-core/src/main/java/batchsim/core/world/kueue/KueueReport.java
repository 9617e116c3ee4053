package batchsim.core.world.kueue;

import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.metrics.Decision;
import batchsim.core.metrics.ProvisioningStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.Recorder;
import batchsim.core.metrics.TasStats;
import batchsim.core.metrics.WaitingStats;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.SimulationSpec;
import batchsim.core.world.AdmissionEngine.EngineReport;
import batchsim.core.world.SampleSource;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** What a Kueue run reports: per-ClusterQueue samples, workload records, quota usage and the decision log. */
final class KueueReport {
  /** At most this many over-time buckets of the waiting split (whole hours each). */
  private static final int WAITING_BUCKETS = 48;
  private final KueueAdmission admission;
  private final SimulationSpec spec;
  private final KueueEngine kueue;
  private final int nRes;
  private final int nFlavors;
  /** Who held a quota while a queue waited on it (hears the engine through the host). */
  final QuotaHolders holders;

  KueueReport(KueueAdmission admission) {
    this.admission = admission;
    this.spec = admission.spec;
    this.kueue = admission.kueue;
    this.nRes = admission.nRes;
    this.nFlavors = spec.flavors().size();
    this.holders = new QuotaHolders(spec, kueue, this::recorder);
  }

  private Recorder recorder() {
    return admission.world.recorder();
  }

  /**
   * Per ClusterQueue: pending, holding, fair-sharing share, evicted and preempted so far; then per covered
   * flavor and resource the quota used and borrowed (above nominal).
   */
  SampleSource queueSamples() {
    List<String> columns = new ArrayList<>();
    List<int[]> usageSlots = new ArrayList<>(); // {queue, flavor, resource}
    for (int q = 0; q < spec.clusterQueues().size(); q++) {
      String name = spec.clusterQueues().get(q).name();
      columns.add("pending:" + name);
      columns.add("holding:" + name);
      columns.add("share:" + name);
      columns.add("evicted:" + name);
      columns.add("preempted:" + name);
    }
    for (int q = 0; q < spec.clusterQueues().size(); q++) {
      String name = spec.clusterQueues().get(q).name();
      for (int f = 0; f < nFlavors; f++) {
        for (int r = 0; r < nRes; r++) {
          if (covers(q, f, r)) {
            String slot = name + ":" + spec.flavors().get(f).name() + ":" + spec.resources().name(r);
            columns.add("used:" + slot);
            columns.add("borrowed:" + slot);
            usageSlots.add(new int[] {q, f, r});
          }
        }
      }
    }
    return new SampleSource() {
      @Override
      public List<String> columns() {
        return columns;
      }

      @Override
      public int sample(long[] row, int c) {
        for (int q = 0; q < spec.clusterQueues().size(); q++) {
          String name = spec.clusterQueues().get(q).name();
          row[c++] = kueue.pendingCount(name);
          row[c++] = admission.holding[q];
          double share = kueue.share(name);
          row[c++] = Double.isInfinite(share) ? Long.MAX_VALUE : Math.round(share);
          row[c++] = recorder().evictedSoFar(q);
          row[c++] = recorder().preemptedSoFar(q);
        }
        for (int[] u : usageSlots) {
          String name = spec.clusterQueues().get(u[0]).name();
          long used = kueue.usage(name, u[1], u[2]);
          row[c++] = used;
          row[c++] = Math.max(0, used - kueue.nominal(name, u[1], u[2]));
        }
        return c;
      }
    };
  }

  /** Sends the live workloads' records, in submission order, and counts them per ClusterQueue. */
  EngineReport build(long end, TasStats tas, ProvisioningStats provisioning) {
    int n = spec.clusterQueues().size();
    long[] pending = new long[n];
    long[] reserved = new long[n];
    long[] running = new long[n];
    for (Workload w : admission.live) {
      WorkloadRun rt = (WorkloadRun) w.runtime;
      if (!rt.serving) {
        switch (w.state()) {
          case PENDING, DEACTIVATED -> pending[rt.queue]++;
          case RESERVED, EVICTING -> reserved[rt.queue]++;
          case RUNNING -> running[rt.queue]++;
          default -> { }
        }
      }
      emit(w);
    }
    return new EngineReport(pending, reserved, running, queueUsage(end), tas, provisioning, waiting(end));
  }

  /** Why workloads waited: the engine's split per queue, with who held each quota a queue waited on. */
  private WaitingStats waiting(long end) {
    List<String> names = new ArrayList<>();
    spec.clusterQueues().forEach(q -> names.add(q.name()));
    WaitingStats w = kueue.waitingStats(end, names, WAITING_BUCKETS);
    List<WaitingStats.Queue> queues = new ArrayList<>();
    for (WaitingStats.Queue q : w.queues()) {
      queues.add(new WaitingStats.Queue(q.clusterQueue(), q.totalMs(), q.causes(), holders.blocks(q.clusterQueue(), end)));
    }
    return new WaitingStats(w.untilMs(), w.bucketMs(), queues, w.overall());
  }

  /** The workload's record (and decision log, when kept) to the world's sink. */
  void emit(Workload w) {
    admission.world.workloads().accept(((WorkloadRun) w.runtime).seq, record(w),
        admission.explain ? decisions(w) : null);
  }

  private static List<Decision> decisions(Workload w) {
    List<Decision> d = new ArrayList<>();
    for (var c : w.history()) {
      d.add(new Decision(c.timeMs(), c.type().kueueName(), c.status(), c.reason(),
          c.message() == null ? "" : c.message()));
    }
    return d;
  }

  private WorkloadRecord record(Workload w) {
    StringBuilder flavors = new StringBuilder();
    boolean waiting = w.state() == WorkloadState.PENDING || w.state() == WorkloadState.DEACTIVATED;
    if (!waiting) {
      TreeMap<String, String> byRes = new TreeMap<>();
      for (int i = 0; i < w.spec().podSets().size(); i++) {
        for (int r = 0; r < nRes; r++) {
          int f = w.flavorOf(i, r);
          if (f >= 0) {
            byRes.put(spec.resources().name(r), spec.flavors().get(f).name());
          }
        }
      }
      byRes.forEach((r, f) -> flavors.append(flavors.length() == 0 ? "" : ";").append(r).append('=').append(f));
    }
    // Pending and deactivated (spec.active=false) workloads say why they hold no quota.
    String msg = waiting && !w.pendingReason().isEmpty() ? w.pendingReason() + ": " + w.pendingMessage() : "";
    var finished = w.condition(batchsim.core.kueue.ConditionType.FINISHED);
    if (finished != null && batchsim.core.kueue.WorkloadSlices.REPLACED.equals(finished.reason())) {
      msg = finished.reason() + ": " + finished.message(); // [elastic] a newer slice of its job took over
    }
    return new WorkloadRecord(w.id(), w.spec().workloadClass(), w.spec().localQueue(), w.clusterQueueName(),
        w.priority(), w.createdMs(), t(w.firstReservedAtMs()), t(w.reservedAtMs()), t(w.admittedAtMs()),
        t(w.startedAtMs()), t(w.finishedAtMs()), w.evictions(), w.preemptions(), w.state().name(),
        flavors.toString(), msg);
  }

  private static long t(long v) {
    return v == Workload.UNSET_TIME ? WorkloadRecord.NEVER : v;
  }

  private List<QueueUsageStat> queueUsage(long end) {
    List<QueueUsageStat> out = new ArrayList<>();
    int frs = nFlavors * nRes;
    for (int q = 0; q < spec.clusterQueues().size(); q++) {
      String name = spec.clusterQueues().get(q).name();
      for (int f = 0; f < nFlavors; f++) {
        for (int r = 0; r < nRes; r++) {
          long nominal = kueue.nominal(name, f, r);
          int slot = q * frs + f * nRes + r;
          long peak = recorder().peakQuotaUsage(slot);
          if (nominal == 0 && peak == 0 && !covers(q, f, r)) {
            continue;
          }
          double mean = recorder().meanQuotaUsage(slot, end);
          double ratio = nominal == 0 ? (mean == 0 ? Double.NaN : Double.POSITIVE_INFINITY) : mean / nominal;
          out.add(new QueueUsageStat(name, spec.flavors().get(f).name(), spec.resources().name(r), nominal, mean,
              ratio, recorder().meanBorrowed(slot, end), peak));
        }
      }
    }
    return out;
  }

  private boolean covers(int q, int f, int r) {
    String flavor = spec.flavors().get(f).name();
    String res = spec.resources().name(r);
    for (var g : spec.clusterQueues().get(q).resourceGroups()) {
      for (var fq : g.flavors()) {
        if (fq.flavor().equals(flavor) && fq.resources().containsKey(res)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Why a stalled run's workloads wait: how many are pending (or hold quota with pods that fit no node) and
   * the first one's reason, or null when none waits. With no event left, none runs or is evicted.
   */
  static String stuck(Iterable<Workload> live) {
    int n = 0;
    Workload first = null;
    for (Workload w : live) {
      if (w.state() == WorkloadState.PENDING || w.state() == WorkloadState.RESERVED) {
        n++;
        first = first == null ? w : first;
      }
    }
    if (first == null) {
      return null;
    }
    String why = first.state() == WorkloadState.RESERVED ? "quota reserved, its pods fit no node"
        : !first.pendingMessage().isEmpty() ? first.pendingMessage()
        : !first.pendingReason().isEmpty() ? first.pendingReason() : "never admitted";
    return n + " workload" + (n == 1 ? "" : "s") + " pending (first: " + first.id() + ": " + why + ")";
  }
}
