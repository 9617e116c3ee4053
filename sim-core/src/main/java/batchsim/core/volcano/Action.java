package batchsim.core.volcano;

/** A Volcano scheduler action, run once per session in the configured order. */
interface Action {
  void execute(Session ssn);

  static Action create(String name) {
    switch (name) {
      case "enqueue": return new EnqueueAction();
      case "allocate": return new AllocateAction();
      case "backfill": return new BackfillAction();
      case "reclaim": return new ReclaimAction();
      case "preempt": return new PreemptAction();
      default: throw new IllegalArgumentException("unknown Volcano action '" + name + "'");
    }
  }
}
