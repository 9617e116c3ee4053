package batchsim.core.kueue;

/**
 * Why a workload waits at some moment, in Kueue's words: the cause its QuotaReserved=False condition gives
 * (see {@link WaitCauses#of}), or, once quota is reserved, admission checks or pods starting.
 *
 * @param kind the kind of cause
 * @param resource for {@link Kind#QUOTA}, the resource short of quota; for {@link Kind#OTHER}, Kueue's reason
 * @param flavor for {@link Kind#QUOTA}, the flavor it is short in; else ""
 */
public record WaitCause(Kind kind, String resource, String flavor) implements Comparable<WaitCause> {

  /** Kinds in the order reports list them: before quota is reserved, then after. */
  public enum Kind {
    NOT_YET_TRIED("not yet tried"),
    QUOTA("quota"),
    EXCEEDS_QUOTA("never fits the quota"),
    WAITING_FOR_PREEMPTED("waiting for preempted workloads"),
    TOPOLOGY("topology"),
    NO_MATCHING_FLAVOR("no matching flavor"),
    NO_LONGER_FITS("no longer fits after another workload"),
    OVERLAPPING_PREEMPTION("overlapping preemption targets"),
    STOPPED_QUEUE("stopped or inactive queue"),
    DEACTIVATED("deactivated"),
    EVICTED("evicted, waiting to requeue"),
    PENDING_EVALUATION("pending evaluation"),
    OTHER("other"),
    ADMISSION_CHECKS("admission checks"),
    PODS_STARTING("pods starting");

    final String label;
    final WaitCause plain;

    Kind(String label) {
      this.label = label;
      this.plain = new WaitCause(this, "", "");
    }
  }

  /** The cause of a kind without details (every kind but QUOTA and OTHER). */
  static WaitCause of(Kind kind) {
    return kind.plain;
  }

  /** What reports print, e.g. "quota: nvidia.com/gpu in a100", "waiting for preempted workloads". */
  public String label() {
    return switch (kind) {
      case QUOTA -> "quota: " + resource + " in " + flavor;
      case OTHER -> "other: " + resource;
      default -> kind.label;
    };
  }

  /** Short of unused quota of one resource in one flavor (the quota other workloads may be holding). */
  public boolean isQuota() {
    return kind == Kind.QUOTA;
  }

  @Override
  public int compareTo(WaitCause o) {
    int c = kind.compareTo(o.kind);
    if (c == 0) {
      c = resource.compareTo(o.resource);
    }
    return c != 0 ? c : flavor.compareTo(o.flavor);
  }
}
