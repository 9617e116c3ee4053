package batchsim.core.kueue;

import batchsim.core.model.AdmissionFairSharing;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.PodSetSpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Admission fair sharing as Kueue's controllers drive it (feature gate AdmissionFairSharing, on when the
 * Configuration has an admissionFairSharing block): the scheduler pushes an entry penalty when it reserves
 * quota (scheduler.go updateEntryPenalty), the workload controller settles it into the consumed resources
 * when the workload becomes Admitted and drops it when the workload can no longer settle
 * (workload_controller.go), and the LocalQueue reconciler decays the consumed resources every sampling
 * interval after the last update (localqueue_controller.go). Every change re-orders the LocalQueue's
 * workloads in a ClusterQueue with admissionScope UsageBasedAdmissionFairSharing.
 *
 * <p>A LocalQueue's usage is divided by its spec.fairSharing.weight (Kueue's cached lqWeights, default 1).
 */
public final class AfsAccounting {
  private final KueueEngine engine;
  final AfsUsageLedger ledger;
  /** LocalQueue → its ClusterQueue. */
  private final Map<String, String> clusterQueueOf = new TreeMap<>();
  /** LocalQueue → its fairSharing weight. */
  private final Map<String, Double> weights = new TreeMap<>();

  AfsAccounting(KueueEngine engine, AdmissionFairSharing config, List<LocalQueueSpec> localQueues) {
    this.engine = engine;
    this.ledger = new AfsUsageLedger(config);
    for (LocalQueueSpec lq : localQueues) {
      clusterQueueOf.put(lq.name(), lq.clusterQueue());
      weights.put(lq.name(), lq.fairWeight());
    }
    for (ClusterQueue q : engine.tree.queues) {
      if (q.spec.usageBasedAdmissionFairSharing()) {
        q.orderByLocalQueueUsage();
      }
    }
    for (String lq : this.clusterQueueOf.keySet()) {
      if (engine.queueLifecycle.localQueueExists(lq)) {
        ledger.ensure(lq, engine.now());
      }
    }
  }

  /** The first sample is due one interval after the start. */
  void start() {
    engine.host.scheduleUsageSample(ledger.nextDueMs());
  }

  private static boolean usesAfs(ClusterQueue q) {
    return q != null && q.spec.usageBasedAdmissionFairSharing();
  }

  /** Kueue shouldApplyEntryPenalty + updateEntryPenalty(add): quota reserved in a fair-sharing ClusterQueue. */
  void reserved(Workload w) {
    if (!usesAfs(w.cq)) {
      return;
    }
    Map<String, BigDecimal> requests = new TreeMap<>();
    int nRes = engine.index.resources().size();
    for (int i = 0; i < w.counts.length; i++) {
      PodSetSpec ps = w.spec.podSets().get(i);
      long[] req = FlavorAssigner.requests(ps, w.counts[i], w.cq, nRes);
      for (int r = 0; r < nRes; r++) {
        if (req[r] > 0) {
          String name = engine.index.resources().name(r);
          requests.merge(name, AfsUsageLedger.quantity(name, req[r]), BigDecimal::add);
        }
      }
    }
    ledger.pushPenalty(w.spec.localQueue(), w.id(), requests, engine.now());
    changed(w.spec.localQueue());
  }

  /** Kueue reconcileAfsPenaltiesOnUpdate: every transition into Admitted settles the workload's penalty. */
  void admitted(Workload w) {
    if (!usesAfs(w.cq)) {
      return;
    }
    String lq = w.spec.localQueue();
    ledger.settle(lq, w.id(), admittedUsage(lq), engine.now());
    changed(lq);
  }

  /** Finished, deleted or deactivated without a reservation, or moved away: its penalty will never settle. */
  void dropPenalty(Workload w, String lq) {
    if (ledger.subPenalty(lq, w.id())) {
      changed(lq);
    }
  }

  void localQueueCreated(String lq) {
    ledger.ensure(lq, engine.now());
    changed(lq);
    engine.host.scheduleUsageSample(ledger.nextDueMs());
  }

  void localQueueDeleted(String lq) {
    ledger.delete(lq);
    changed(lq);
  }

  /**
   * Kueue's LocalQueue reconciler: every LocalQueue one sampling interval past its last update decays.
   * Returns those LocalQueues, in name order.
   */
  public List<String> sample() {
    long now = engine.now();
    List<String> due = ledger.due(now);
    for (String lq : due) {
      ledger.sample(lq, admittedUsage(lq), now);
      changed(lq);
    }
    return due;
  }

  /**
   * Kueue cache LocalQueue.GetAdmittedUsage: the usage of its admitted workloads, flavors summed; every
   * resource its ClusterQueue covers is there, 0 when unused.
   */
  private Map<String, BigDecimal> admittedUsage(String lq) {
    Map<String, BigDecimal> out = new TreeMap<>();
    ClusterQueue q = engine.tree.queuesByName.get(clusterQueueOf.get(lq));
    if (q == null) {
      return out;
    }
    for (ResourceGroup g : q.groups) {
      for (int r : g.covered()) {
        out.put(engine.index.resources().name(r), BigDecimal.ZERO);
      }
    }
    for (Workload w : q.admitted) {
      if (w.admittedAtMs == Workload.UNSET_TIME || !lq.equals(w.spec.localQueue())) {
        continue;
      }
      FrAmounts u = w.usage;
      for (int i = 0; i < u.size(); i++) {
        String name = engine.index.resourceName(u.frs[i]);
        out.merge(name, AfsUsageLedger.quantity(name, u.amounts[i]), BigDecimal::add);
      }
    }
    return out;
  }

  /** The LocalQueue's new usage orders its workloads in its ClusterQueue. */
  private void changed(String lq) {
    ClusterQueue q = engine.tree.queuesByName.get(clusterQueueOf.get(lq));
    if (q != null && q.orderedByLocalQueueUsage()) {
      q.setLocalQueueUsage(lq, usage(lq));
    }
  }

  /** Kueue's usage of the LocalQueue (CalculateUsage: weighted resources over the LocalQueue's weight). */
  public double usage(String lq) {
    return ledger.usage(lq, weights.getOrDefault(lq, 1.0));
  }

  /** When the next LocalQueue is due for a usage sample (MAX_VALUE: none). */
  public long nextSampleMs() {
    return ledger.nextDueMs();
  }

  public AfsUsageLedger ledger() {
    return ledger;
  }
}
