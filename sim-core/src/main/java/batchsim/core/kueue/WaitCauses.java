package batchsim.core.kueue;

/**
 * Classifies a QuotaReserved=False reason and message (as decisions.csv shows them) into a {@link WaitCause}.
 * Cheap string checks, no cache: called once per condition change.
 */
public final class WaitCauses {
  private static final String UNUSED = "insufficient unused quota for ";
  private static final String NEVER = "insufficient quota for ";
  private static final String IN_FLAVOR = " in flavor ";

  private WaitCauses() {}

  /** The cause a QuotaReserved=False condition with this reason and message gives. */
  public static WaitCause of(String reason, String message) {
    return of(reason, message, null);
  }

  /**
   * The same, reusing a quota cause of {@code known} (then added to it) instead of allocating one per call: the
   * run's quota causes are at most its flavors × resources.
   */
  static WaitCause of(String reason, String message, java.util.List<WaitCause> known) {
    String m = message == null ? "" : message;
    switch (reason) {
      case "WaitingForPreemptedWorkloads":
        return WaitCause.of(WaitCause.Kind.WAITING_FOR_PREEMPTED);
      case "TopologyPlacementFailed":
        return WaitCause.of(WaitCause.Kind.TOPOLOGY);
      case "NoMatchingFlavor":
        return WaitCause.of(WaitCause.Kind.NO_MATCHING_FLAVOR);
      case "Suspended", "Misconfigured":
        return WaitCause.of(WaitCause.Kind.STOPPED_QUEUE);
      case "Deactivated":
        return WaitCause.of(WaitCause.Kind.DEACTIVATED);
      case "PendingEvaluation":
        // Kueue words a requeue after an eviction with the eviction's message; a workload queued again for
        // any other reason (moved, reactivated) is "pending evaluation in the scheduling queue".
        return WaitCause.of(m.startsWith("Workload is pending evaluation")
            ? WaitCause.Kind.PENDING_EVALUATION : WaitCause.Kind.EVICTED);
      case "WaitingForQuota", "Pending":
        return fromMessage(m, reason, known);
      default:
        return new WaitCause(WaitCause.Kind.OTHER, reason, "");
    }
  }

  /**
   * A scheduler's "couldn't assign flavors" message: the first "insufficient unused quota for R in flavor F"
   * clause of a flavor that could hold the workload names the quota it waits on (an "insufficient quota for
   * R in flavor F ... > maximum capacity" clause says F never can: its unused-quota clauses are not the
   * cause); else a topology that does not fit; else Kueue's other scheduler answers.
   */
  private static WaitCause fromMessage(String m, String reason, java.util.List<WaitCause> known) {
    for (int i = m.indexOf(UNUSED); i >= 0; i = m.indexOf(UNUSED, i + 1)) {
      int from = i + UNUSED.length();
      int in = m.indexOf(IN_FLAVOR, from);
      if (in > from) {
        int f = in + IN_FLAVOR.length();
        int end = flavorEnd(m, f);
        if (!neverFits(m, m.substring(f, end))) {
          return quota(m, from, in, f, end, known);
        }
      }
    }
    if (m.contains("topology \"") && (m.contains("allows to fit only") || m.contains("allow to fit"))) {
      return WaitCause.of(WaitCause.Kind.TOPOLOGY);
    }
    if (m.startsWith("Workload no longer fits after processing another workload")) {
      return WaitCause.of(WaitCause.Kind.NO_LONGER_FITS);
    }
    if (m.startsWith("Workload has overlapping preemption targets")) {
      return WaitCause.of(WaitCause.Kind.OVERLAPPING_PREEMPTION);
    }
    if (m.contains("> maximum capacity")) {
      return WaitCause.of(WaitCause.Kind.EXCEEDS_QUOTA);
    }
    return new WaitCause(WaitCause.Kind.OTHER, reason, "");
  }

  private static int flavorEnd(String m, int f) {
    int end = f;
    while (end < m.length() && m.charAt(end) != ',' && m.charAt(end) != '.' && m.charAt(end) != ';'
        && m.charAt(end) != ' ') {
      end++;
    }
    return end;
  }

  /** Whether an "insufficient quota for R in flavor F" clause (beyond its maximum capacity) names {@code flavor}. */
  private static boolean neverFits(String m, String flavor) {
    for (int i = m.indexOf(NEVER); i >= 0; i = m.indexOf(NEVER, i + 1)) {
      int in = m.indexOf(IN_FLAVOR, i + NEVER.length());
      if (in > 0) {
        int f = in + IN_FLAVOR.length();
        if (m.startsWith(flavor, f) && flavorEnd(m, f) == f + flavor.length()) {
          return true;
        }
      }
    }
    return false;
  }

  /** The quota cause of resource m[from, in) in flavor m[f, end), one of {@code known} when it is there. */
  private static WaitCause quota(String m, int from, int in, int f, int end, java.util.List<WaitCause> known) {
    if (known != null) {
      for (WaitCause c : known) {
        if (c.resource().length() == in - from && c.flavor().length() == end - f
            && m.startsWith(c.resource(), from) && m.startsWith(c.flavor(), f)) {
          return c;
        }
      }
    }
    WaitCause c = new WaitCause(WaitCause.Kind.QUOTA, m.substring(from, in), m.substring(f, end));
    if (known != null) {
      known.add(c);
    }
    return c;
  }
}
