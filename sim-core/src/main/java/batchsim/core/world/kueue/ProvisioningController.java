package batchsim.core.world.kueue;

import batchsim.core.cluster.Node;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventTarget;
import batchsim.core.kueue.Backoff;
import batchsim.core.kueue.CheckState;
import batchsim.core.kueue.Workload;
import batchsim.core.model.AdmissionCheckSpec;
import batchsim.core.model.AutoscalingSpec;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ProvisioningSpec;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.model.ActionRefused;
import batchsim.core.model.WorkloadAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * Kueue's ProvisioningRequest admission-check controller and a cluster autoscaler, in virtual time.
 *
 * <p>Port of the behaviour in {@code pkg/controller/admissionchecks/provisioning/controller.go} @ ff69552e:
 * when a workload reserves quota in a ClusterQueue with a ProvisioningRequest check, a request
 * {@code <wl>-<check>-<attempt>} is made. After the modelled delay it is Provisioned — for
 * {@code best-effort-atomic-scale-up} the autoscaler adds the nodes the pods need to the pool (up to its
 * max), for {@code check-capacity} the capacity must exist already — or Failed. Provisioned makes the
 * check Ready; Failed makes it Retry with backoff {@code base × 2^retries} (capped), or Rejected past the
 * limit. A booking that expires (or is revoked) before the workload is Admitted is BookingExpired → Retry
 * (CapacityRevoked → Rejected). Autoscaled pools give back nodes that stayed empty for the scale-down delay.
 */
final class ProvisioningController implements EventTarget {
  private final KueueAdmission admission;
  private final Map<String, AdmissionCheckSpec> checks = new LinkedHashMap<>();
  private final Map<Integer, AutoscalingSpec> autoscaled = new HashMap<>();
  private final SplittableRandom random;
  /** Retries so far per (workload, check), for the attempt number and backoff (Kueue retryCount). */
  private final Map<Workload, Map<String, Integer>> retries = new HashMap<>();
  final Histogram latency = new Histogram(3);
  final Histogram checkWait = new Histogram(3);
  long requests;
  long failures;
  long retried;
  long rejected;
  long bookingsExpired;
  long nodesAdded;
  long nodesRemoved;

  ProvisioningController(KueueAdmission admission, SplittableRandom random) {
    this.admission = admission;
    this.random = random;
    for (AdmissionCheckSpec c : admission.spec.admissionChecks()) {
      checks.put(c.name(), c);
    }
    for (AutoscalingSpec a : admission.spec.autoscaling()) {
      autoscaled.put(admission.spec.poolIndex(a.pool()), a);
    }
  }

  /** One request attempt; stale once the workload's reservation changed. */
  private record Attempt(Workload w, String check, long reservation, long createdMs, boolean provisioned) {
    @Override
    public String toString() {
      return w.id() + "-" + check;
    }
  }

  /** A request whose outcome a timeline action set; the modelled outcome of it is dropped. */
  private record Request(Workload w, String check, long reservation) {}

  private final Set<Request> overridden = new HashSet<>();

  private record EmptyNode(Node node, long epoch) {
    @Override
    public String toString() {
      return node.name();
    }
  }

  /** Quota reserved with checks pending: create a ProvisioningRequest per check. */
  void onQuotaReserved(Workload w) {
    for (String name : new java.util.ArrayList<>(admission.kueue.checkNames(w))) {
      AdmissionCheckSpec c = checks.get(name);
      if (c == null || c.provisioning() == null) {
        continue; // another controller's check: Pending until the timeline's setAdmissionCheck answers
      }
      if (!needsRequest(w, c.provisioning())) {
        // Kueue: no request needed (no managed resource requested) → Ready at once.
        admission.setCheckState(w, name, CheckState.READY, 0, "the provisioning request is not needed");
        continue;
      }
      requests++;
      long delay = c.provisioning().delay().sample(random);
      admission.loop.schedule(admission.loop.now() + delay, EventKind.PROVISIONING_RESULT, this,
          new Attempt(w, name, w.reservedAtMs(), admission.loop.now(), false));
    }
  }

  private boolean needsRequest(Workload w, ProvisioningSpec p) {
    if (p.managedResources().isEmpty()) {
      return true;
    }
    for (PodSetSpec ps : w.spec().podSets()) {
      for (String r : p.managedResources()) {
        int i = admission.spec.resources().indexOf(r);
        if (i >= 0 && ps.perPod().get(i) > 0 && ps.count() > 0) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public void handle(Event e) {
    if (e.kind() != EventKind.SCALE_DOWN_CHECK && admission.downtime.deferred(e)) {
      return; // the autoscaler answered; Kueue's provisioning controller reads it when it is up
    }
    if (e.kind() == EventKind.SCALE_DOWN_CHECK) {
      EmptyNode en = (EmptyNode) e.payload();
      scaleDown(en.node(), en.epoch());
      return;
    }
    Attempt a = (Attempt) e.payload();
    Workload w = a.w();
    if (w.reservedAtMs() != a.reservation() || w.state() != batchsim.core.kueue.WorkloadState.RESERVED) {
      return; // the reservation this request was for is gone (evicted, another check failed)
    }
    if (overridden.contains(new Request(w, a.check(), a.reservation()))) {
      return;
    }
    ProvisioningSpec p = checks.get(a.check()).provisioning();
    if (e.kind() == EventKind.BOOKING_EXPIRY) {
      // Kueue: BookingExpired is ignored once Admitted; before that it is a Retry (or Rejected past the limit).
      if (w.check(a.check()) == CheckState.READY && w.waitingForChecks()) {
        bookingsExpired++;
        fail(w, a.check(), p, "BookingExpired");
      }
      return;
    }
    if (w.check(a.check()) != CheckState.PENDING) {
      return;
    }
    boolean ok = random.nextDouble() >= p.failureProbability() && provision(w, p);
    if (!ok) {
      failures++;
      fail(w, a.check(), p, "Failed");
      return;
    }
    latency.recordValue(admission.loop.now() - a.createdMs());
    if (p.capacityRevokedProbability() > 0 && random.nextDouble() < p.capacityRevokedProbability()) {
      rejected++;
      admission.setCheckState(w, a.check(), CheckState.REJECTED, 0, "CapacityRevoked");
      return;
    }
    admission.setCheckState(w, a.check(), CheckState.READY, 0, "Provisioned");
    if (w.check(a.check()) == CheckState.READY && w.waitingForChecks() && p.bookingExpiryMs() > 0) {
      admission.loop.schedule(admission.loop.now() + p.bookingExpiryMs(), EventKind.BOOKING_EXPIRY, this,
          new Attempt(w, a.check(), a.reservation(), a.createdMs(), true));
    }
    if (!w.waitingForChecks() && w.admittedAtMs() != Workload.UNSET_TIME) {
      checkWait.recordValue(w.admittedAtMs() - w.reservedAtMs());
    }
    if (w.admittedAtMs() != Workload.UNSET_TIME) {
      retries.remove(w); // admitted: Kueue's retry count belongs to this admission attempt
    }
  }

  /**
   * A condition a timeline action sets on the workload's ProvisioningRequest, as the autoscaler would; it
   * overrides the modelled outcome of that request. Kueue provisioning controller.go (syncCheckStates):
   * Provisioned → the check is Ready (the autoscaler added what the pods need, as far as the pool allows);
   * Failed → Retry with the retry strategy's backoff, Rejected past backoffLimitCount; BookingExpired → the same
   * before the workload is Admitted, ignored after; CapacityRevoked → Rejected, which deactivates the workload.
   */
  void setCondition(Workload w, String check, WorkloadAction.ProvisioningCondition condition) {
    String name = requestCheck(w, check);
    ProvisioningSpec p = checks.get(name).provisioning();
    overridden.add(new Request(w, name, w.reservedAtMs()));
    switch (condition) {
      case PROVISIONED -> {
        if (w.check(name) == CheckState.PENDING) {
          provision(w, p);
          admission.setCheckState(w, name, CheckState.READY, 0, "Provisioned");
        }
      }
      case FAILED -> {
        failures++;
        fail(w, name, p, "Failed");
      }
      case BOOKING_EXPIRED -> {
        if (w.admittedAtMs() == Workload.UNSET_TIME) {
          bookingsExpired++;
          fail(w, name, p, "BookingExpired");
        }
      }
      case CAPACITY_REVOKED -> {
        rejected++;
        admission.setCheckState(w, name, CheckState.REJECTED, 0, "CapacityRevoked");
      }
    }
  }

  /**
   * The check whose ProvisioningRequest exists for the workload's current reservation: {@code check}, or the
   * only one when null. Refused when there is none (no reservation, no such check, or no request needed).
   */
  private String requestCheck(Workload w, String check) {
    String why = "workload " + w.id() + " has no ProvisioningRequest";
    if (w.state() != WorkloadState.RESERVED && w.state() != WorkloadState.RUNNING) {
      throw new ActionRefused(why + ": it holds no quota reservation (it is " + w.state().name().toLowerCase() + ")");
    }
    List<String> requested = new ArrayList<>();
    for (String name : w.checks().keySet()) {
      AdmissionCheckSpec c = checks.get(name);
      if (c != null && c.provisioning() != null && needsRequest(w, c.provisioning())) {
        requested.add(name);
      }
    }
    if (check != null && !requested.contains(check)) {
      String reason = w.check(check) == null ? "its ClusterQueue " + w.clusterQueueName() + " has no such check"
          : checks.get(check) == null || checks.get(check).provisioning() == null ? "it is not a ProvisioningRequest check"
          : "the workload requests none of its managed resources";
      throw new ActionRefused(why + " for check " + check + ": " + reason);
    }
    if (check == null && requested.size() != 1) {
      throw new ActionRefused(requested.isEmpty()
          ? why + ": no admission check of its ClusterQueue " + w.clusterQueueName() + " made one"
          : why + " per check (" + String.join(", ", requested) + "): name the check");
    }
    return check != null ? check : requested.get(0);
  }

  /** Failed or BookingExpired: Retry with Kueue's backoff, or Rejected past backoffLimitCount. */
  private void fail(Workload w, String check, ProvisioningSpec p, String why) {
    int n = retries.computeIfAbsent(w, k -> new HashMap<>()).merge(check, 1, Integer::sum);
    if (n > p.backoffLimitCount()) {
      rejected++;
      admission.setCheckState(w, check, CheckState.REJECTED, 0, why + " after " + (n - 1) + " retries");
      return;
    }
    retried++;
    // Kueue provisioning controller: the check says "Retrying after ..." around the request's own message.
    String retrying = "BookingExpired".equals(why) ? "Retrying after booking expired: " : "Retrying after failure: ";
    admission.setCheckState(w, check, CheckState.RETRY, Backoff.exponential(p.backoffBaseMs(), p.backoffMaxMs(), n),
        retrying + why + " (attempt " + n + ")");
  }

  /** Provisioned? check-capacity needs the room now; atomic scale-up adds the nodes the pods lack. */
  private boolean provision(Workload w, ProvisioningSpec p) {
    int pool = admission.spec.poolIndex(p.scaleUpPool());
    if (pool < 0) {
      return false;
    }
    NodePoolSpec spec = admission.world.cluster().pools().get(pool);
    int need = nodesNeeded(w, spec);
    if (need < 0) {
      return false; // a pod larger than a node never fits
    }
    if (ProvisioningSpec.CHECK_CAPACITY.equals(p.provisioningClass())) {
      return freeNodes(pool, spec) >= need;
    }
    int missing = need - freeNodes(pool, spec);
    if (missing <= 0) {
      return true;
    }
    AutoscalingSpec a = autoscaled.get(pool);
    long present = admission.world.cluster().nodesOf(spec.name(), null).size();
    if (a == null || present + missing > a.max()) {
      return false; // best-effort-atomic: all or nothing
    }
    nodesAdded += missing;
    admission.world.nodes().addNodes(pool, missing);
    return true;
  }

  /** Whole nodes of the pool the workload's pods need, packing pods per node by the tightest resource. */
  private int nodesNeeded(Workload w, NodePoolSpec pool) {
    int nodes = 0;
    for (int i = 0; i < w.spec().podSets().size(); i++) {
      PodSetSpec ps = w.podSet(i);
      long perNode = Long.MAX_VALUE;
      for (int r = 0; r < admission.spec.resources().size(); r++) {
        long req = ps.perPod().get(r);
        if (req > 0) {
          perNode = Math.min(perNode, pool.allocatable().get(r) / req);
        }
      }
      if (perNode == 0) {
        return -1;
      }
      int count = w.admittedCount(i);
      nodes += perNode == Long.MAX_VALUE ? 0 : (int) ((count + perNode - 1) / perNode);
    }
    return nodes;
  }

  /** Empty schedulable nodes of the pool (a crude but honest capacity check for whole-node requests). */
  private int freeNodes(int pool, NodePoolSpec spec) {
    int free = 0;
    for (Node n : admission.world.cluster().nodesOf(spec.name(), null)) {
      if (n.schedulable() && n.podCount() == 0) {
        free++;
      }
    }
    return free;
  }

  /** A pod left a node: if the node is now empty and its pool is autoscaled, consider scaling it down. */
  void nodeMaybeEmpty(Node n) {
    AutoscalingSpec a = autoscaled.get(n.pool());
    if (a != null && n.podCount() == 0 && !n.removed()) {
      admission.loop.schedule(admission.loop.now() + a.scaleDownDelayMs(), EventKind.SCALE_DOWN_CHECK, this,
          new EmptyNode(n, n.emptyEpoch()));
    }
  }

  private void scaleDown(Node n, long epoch) {
    AutoscalingSpec a = autoscaled.get(n.pool());
    if (n.removed() || n.podCount() > 0 || n.emptyEpoch() != epoch) {
      return;
    }
    if (admission.world.cluster().nodesOf(a.pool(), null).size() <= a.min()) {
      return;
    }
    nodesRemoved++;
    admission.world.nodes().removeNode(n);
  }

  /** What the run reports; null when the scenario has no admission checks and no autoscaled pools. */
  batchsim.core.metrics.ProvisioningStats stats() {
    if (checks.values().stream().allMatch(AdmissionCheckSpec::multiKueue) && autoscaled.isEmpty()) {
      return null; // MultiKueue's checks have their own figures (RunResult.clusters)
    }
    return new batchsim.core.metrics.ProvisioningStats(requests, failures, retried, rejected, bookingsExpired,
        nodesAdded, nodesRemoved, latency.copy(), checkWait.copy());
  }
}
