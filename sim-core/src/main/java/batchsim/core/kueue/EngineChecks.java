package batchsim.core.kueue;

import java.util.List;

/** The engine's invariants, asked after every event of a checked run ({@code --check}). */
public final class EngineChecks {
  private final KueueEngine engine;

  EngineChecks(KueueEngine engine) {
    this.engine = engine;
  }

  /** Turns on tracking of changed workloads for {@link #checkTouchedWorkloads()} and the waiting recount. */
  public void trackChanges(boolean on) {
    engine.stateCheck.trackChanges(on);
    engine.waiting.keepWaiting(on);
  }

  /**
   * Checks that every workload changed since the last call is in exactly one lifecycle state and in the
   * structures that state implies: a pending workload in exactly one of its queue's active heap or
   * inadmissible set, a workload holding quota in its queue's admitted set and nowhere else, a finished
   * one nowhere. Returns the violations (empty when clean) and forgets the changed set.
   */
  public List<String> checkTouchedWorkloads() {
    return engine.stateCheck.checkTouchedWorkloads();
  }

  /**
   * Checks the quota invariants on every node of every tree (see {@link QuotaInvariants#checkQuotaInvariants}).
   * Returns the violations found (empty when clean).
   */
  public List<String> checkQuotaInvariants() {
    return engine.quotaInvariants.checkQuotaInvariants();
  }

  /** The waiting counts per queue and cause equal a recount ({@link WaitingTime#check}). */
  public List<String> checkWaitingCounts() {
    return engine.waiting.check(engine.tree.queues);
  }

  /** Violations of "no operation on a deleted queue or workload" since the last call. */
  public List<String> takeOperationViolations() {
    return engine.workloads.takeOperationViolations();
  }
}
