package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kueue admission checks (pkg/controller/admissionchecks, workload AdmissionCheckStates): a reservation
 * waits for every check of its ClusterQueue to be Ready before the workload is Admitted; Retry and
 * Rejected evict it.
 */
final class AdmissionChecks {
  private final KueueEngine engine;

  AdmissionChecks(KueueEngine engine) {
    this.engine = engine;
  }

  /** The admission checks of a workload's current reservation. */
  List<String> checkNames(Workload w) {
    return new ArrayList<>(w.checks.keySet());
  }

  /**
   * The checks a reservation on {@code w}'s assigned flavors needs (Kueue AdmissionChecksForWorkload): all the
   * ClusterQueue's checks, less the admissionChecksStrategy rules whose onFlavors miss every assigned flavor.
   */
  List<String> checksFor(ClusterQueue q, Workload w) {
    if (q.spec.checkFlavors().isEmpty()) {
      return q.spec.admissionChecks();
    }
    Set<String> assigned = new TreeSet<>();
    for (int[] podSet : w.flavors) {
      for (int f : podSet) {
        if (f >= 0) {
          assigned.add(engine.index.flavorName(f));
        }
      }
    }
    return q.spec.checksFor(assigned);
  }

  /** After the cycle reserved quota: bind pods now, or first run the admission checks. */
  void afterReservation(Workload w) {
    if (w.checks.isEmpty()) {
      engine.host.onAdmitted(w);
    } else {
      engine.host.onQuotaReserved(w);
    }
  }

  /**
   * An admission check controller's verdict (Kueue AdmissionCheckState). Ready on every check admits the
   * workload; Retry evicts it (reason AdmissionCheck) and requeues it after {@code requeueAfterMs};
   * Rejected evicts and deactivates it. Verdicts for a workload that no longer holds that reservation are
   * ignored.
   */
  void setCheckState(Workload w, String check, CheckState state, long requeueAfterMs, String message) {
    CheckState current = w.checks.get(check);
    boolean admitted = !w.checks.containsValue(CheckState.PENDING);
    // Kueue reconcileCheckBasedEviction: a Ready check that turns Retry/Rejected evicts the workload, admitted or
    // not (whether to report BookingExpired after admission is the provisioning controller's choice); a check
    // may go back to Pending until the workload is Admitted.
    boolean legal = current == CheckState.PENDING
        || (current == CheckState.READY && (state == CheckState.RETRY || state == CheckState.REJECTED))
        || (current == CheckState.READY && !admitted && state == CheckState.PENDING);
    boolean reserved = w.state == WorkloadState.RESERVED || w.state == WorkloadState.RUNNING;
    if (!reserved || !legal) {
      return;
    }
    engine.stateCheck.touch(w);
    w.checks.put(check, state);
    switch (state) {
      case READY -> {
        // [TAS] A delayed topology is placed by a second pass first; Admitted follows it.
        if (!w.checks.containsValue(CheckState.PENDING) && !engine.tas.secondPass.deferAdmissionForTopology(w)) {
          admit(w);
        }
      }
      case RETRY -> {
        // Kueue: requeueAt = the check's transition + requeueAfterSeconds, set before the eviction.
        w.requeueAtMs = engine.now() + requeueAfterMs;
        engine.workloads.evict(w, "AdmissionCheck", null, "Evicted due to " + checksMessage(check, "Retry", message));
      }
      // Kueue: DeactivationTarget (AdmissionCheck), spec.active=false, then the deactivation eviction.
      case REJECTED -> engine.workloads.evict(w, "DeactivatedDueToAdmissionCheck", null,
          "The workload is deactivated due to " + checksMessage(check, "Rejected", message));
      default -> { }
    }
  }

  /** Kueue buildAdmissionChecksMessage (workload_controller.go) for one check. */
  private static String checksMessage(String check, String state, String message) {
    String part = "\"" + check + "\"" + (message == null || message.isEmpty() ? "" : " (" + message + ")");
    return "AdmissionCheck in " + state + " state: " + part;
  }

  /** Admitted=True since {@code at} (every check Ready). */
  static void markAdmitted(Workload w, long at) {
    w.admittedAtMs = at;
    w.setCondition(ConditionType.ADMITTED, true, "Admitted", "The workload is admitted", at);
  }

  /**
   * Every check is Ready: Admitted. [TAS] Also when a second pass placed the delayed topology, as its last
   * check's Ready would have.
   */
  void admit(Workload w) {
    markAdmitted(w, engine.now());
    if (engine.afs != null) {
      engine.afs.admitted(w);
    }
    engine.recorder.event(w, "Admitted", "Normal");
    engine.host.onAdmitted(w);
  }
}
