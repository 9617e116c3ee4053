package batchsim.core.world.kueue;

import batchsim.core.kueue.AfsUsageLedger;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ResourceSpace;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * ClusterQueue, LocalQueue and Cohort status as Kueue's API shapes it (apis/kueue/v1beta2): the counts the
 * ClusterQueue controller writes (pkg/controller/core/clusterqueue_controller.go updateCqStatusIfChanged),
 * flavorsReservation and flavorsUsage per flavor of each resource group with every covered resource sorted
 * by name (pkg/cache/scheduler/cache.go getUsage; borrowed is "0" outside a cohort or at most nominal),
 * fairSharing.weightedShare rounded up (core.WeightedShare, MaxInt64 for a zero weight that borrows), and
 * the Active condition (cache ClusterQueueReadiness).
 */
final class QueueStatus {
  private final KueueEngine kueue;
  private final ResourceSpace resources;

  QueueStatus(KueueEngine kueue, ResourceSpace resources) {
    this.kueue = kueue;
    this.resources = resources;
  }

  /** Counts of one queue: pending, reserving, admitted. */
  static Map<String, Object> counts(Map<String, Object> into, int pending, int reserving, int admitted) {
    into.put("pendingWorkloads", pending);
    into.put("reservingWorkloads", reserving);
    into.put("admittedWorkloads", admitted);
    return into;
  }

  Map<String, Object> clusterQueue(ClusterQueueSpec cq, int[] counts, long[] admittedUsage, long activeSinceMs) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("conditions", List.of(active(cq.name(), activeSinceMs)));
    s.put("flavorsReservation", flavors(cq, null));
    s.put("flavorsUsage", flavors(cq, admittedUsage));
    counts(s, counts[0], counts[1], counts[2]);
    if (kueue.fairSharing()) {
      s.put("fairSharing", Map.of("weightedShare", weightedShare(kueue.share(cq.name()))));
    }
    return s;
  }

  Map<String, Object> cohort(String name) {
    Map<String, Object> s = new LinkedHashMap<>();
    if (kueue.fairSharing()) {
      s.put("fairSharing", Map.of("weightedShare", weightedShare(kueue.cohortShare(name))));
    }
    return s;
  }

  /** Kueue's Active condition's status, reason and message for the queue now. */
  String[] activeState(String cq) {
    String[] c = kueue.clusterQueueActiveCondition(cq);
    return new String[] {"Ready".equals(c[0]) ? "True" : "False", c[0], c[1]};
  }

  private Map<String, Object> active(String cq, long sinceMs) {
    String[] a = activeState(cq);
    return WorkloadStatus.condition("Active", a[0].equals("True"), a[1], a[2], sinceMs);
  }

  /** Kueue getUsage: reservation (the quota tree's usage) when {@code admitted} is null, else admitted usage. */
  private List<Object> flavors(ClusterQueueSpec cq, long[] admitted) {
    List<Object> out = new ArrayList<>();
    for (ResourceGroupSpec g : cq.resourceGroups()) {
      for (FlavorQuotaSpec fq : g.flavors()) {
        int f = kueue.index().flavorIndex(fq.flavor());
        List<Object> rs = new ArrayList<>();
        for (String name : new TreeSet<>(g.coveredResources())) {
          int r = resources.indexOf(name);
          long used = r < 0 ? 0 : admitted == null ? kueue.usage(cq.name(), f, r) : admitted[f * resources.size() + r];
          Map<String, Object> u = new LinkedHashMap<>();
          u.put("name", name);
          u.put("total", KueueQuantity.format(name, used));
          long borrowed = r < 0 ? 0 : used - kueue.nominal(cq.name(), f, r);
          // Quantity is a struct: Kueue's JSON always carries borrowed, "0" when not borrowing.
          u.put("borrowed", KueueQuantity.format(name, cq.cohort() != null && borrowed > 0 ? borrowed : 0));
          rs.add(u);
        }
        Map<String, Object> fu = new LinkedHashMap<>();
        fu.put("name", fq.flavor());
        fu.put("resources", rs);
        out.add(fu);
      }
    }
    return out;
  }

  /**
   * A LocalQueue's status.fairSharing with admission fair sharing: weightedShare (0: Kueue sets it only for
   * ClusterQueues and Cohorts) and admissionFairSharingStatus (consumedResources, lastUpdate); null when
   * admission fair sharing is off or the LocalQueue has no ledger entry.
   */
  Map<String, Object> admissionFairSharing(String lq) {
    AfsUsageLedger ledger = kueue.admissionFairSharing() == null ? null : kueue.admissionFairSharing().ledger();
    Map<String, BigDecimal> consumed = ledger == null ? null : ledger.consumed(lq);
    if (consumed == null) {
      return null;
    }
    Map<String, Object> resources = new LinkedHashMap<>();
    consumed.forEach((name, v) -> resources.put(name, KueueQuantity.decimal(v)));
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("consumedResources", resources);
    status.put("lastUpdate", WorkloadStatus.time(ledger.lastUpdateMs(lq)));
    Map<String, Object> fs = new LinkedHashMap<>();
    fs.put("weightedShare", 0L);
    fs.put("admissionFairSharingStatus", status);
    return fs;
  }

  /** Kueue core.WeightedShare. */
  static long weightedShare(double share) {
    return share == Double.POSITIVE_INFINITY ? Long.MAX_VALUE : (long) Math.ceil(share);
  }
}
