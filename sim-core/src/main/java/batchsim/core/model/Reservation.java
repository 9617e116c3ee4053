package batchsim.core.model;

import java.util.List;
import java.util.Map;

/**
 * A workload that already holds quota when the run starts: the live state of a cluster imported from its
 * Kueue Workload objects. Times are virtual ms, at or before 0 (the snapshot).
 *
 * @param reservedAtMs when its quota was reserved (Kueue's QuotaReserved transition)
 * @param admitted Admitted=True: every admission check is Ready; false: the checks are still pending and
 *     their controllers start from the snapshot
 * @param startedAtMs when its pods started running (elapsed time counts against its runtime), or
 *     {@link #NOT_STARTED} when its pods are not all running yet
 * @param flavors per pod set (in spec order): resource name → flavor name, as Kueue's
 *     {@code status.admission.podSetAssignments[].flavors}
 * @param counts per pod set: the admitted pod count (partial admission may admit fewer)
 * @param nodes per pod set: the node of each running pod (as many as it has, possibly none): its pods are
 *     bound there at the snapshot; pods without a node go to the kube-scheduler emulation
 */
public record Reservation(long reservedAtMs, boolean admitted, long startedAtMs, List<Map<String, String>> flavors,
    int[] counts, List<List<String>> nodes) implements LiveState {
  public static final long NOT_STARTED = Long.MIN_VALUE;

  public Reservation {
    if (reservedAtMs > 0 || startedAtMs != NOT_STARTED && startedAtMs > 0) {
      throw new IllegalArgumentException("a reservation restored at the start lies at or before 0");
    }
    flavors = List.copyOf(flavors);
    counts = counts.clone();
    nodes = List.copyOf(nodes);
  }

  public boolean running() {
    return startedAtMs != NOT_STARTED;
  }

  /** How long its pods have run at the snapshot. */
  public long elapsedMs() {
    return running() ? -startedAtMs : 0;
  }
}
