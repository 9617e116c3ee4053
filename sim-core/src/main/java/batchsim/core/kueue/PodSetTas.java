package batchsim.core.kueue;

import batchsim.core.kueue.Assignment.PodSetAssignment;
import batchsim.core.kueue.tas.PodSetRequest;
import batchsim.core.kueue.tas.TasFlavorSnapshot;
import batchsim.core.kueue.tas.TopologyAssignment;

/** One podSet's TAS request and, once placed, its assignment (Kueue PodSetAssignment.TopologyAssignment). */
final class PodSetTas {
static final String DELAYED_PENDING = "Pending";
static final String DELAYED_READY = "Ready";

  final int podSet;
  final TasFlavorSnapshot snap;
  final PodSetRequest request;
  TopologyAssignment assignment;
  /**
   * Kueue DelayedTopologyRequest: "Pending" while placement waits for the ProvisioningRequest check
   * (first pass reserves quota only), "Ready" once placed; null when never delayed.
   */
  String delayed;

  PodSetTas(int podSet, TasFlavorSnapshot snap, PodSetRequest request) {
    this.podSet = podSet;
    this.snap = snap;
    this.request = request;
  }

  PodSetTas copy() {
    PodSetTas c = new PodSetTas(podSet, snap, request);
    c.assignment = assignment;
    c.delayed = delayed;
    return c;
  }

  boolean pending() {
    return DELAYED_PENDING.equals(delayed);
  }
}
