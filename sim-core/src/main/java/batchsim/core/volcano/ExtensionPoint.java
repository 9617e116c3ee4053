package batchsim.core.volcano;

/**
 * The per-plugin switches of a Volcano scheduler tier ({@code enableXxx} in the configuration). Volcano
 * defaults every switch to on in a real configuration (pkg/scheduler/plugins/defaults.go) but leaves them off
 * in unit tests; {@link PluginSpec#defaults} gives the former.
 */
public enum ExtensionPoint {
  JOB_ORDER("jobOrder"),
  JOB_READY("jobReady"),
  JOB_PIPELINED("jobPipelined"),
  /** Both the JobEnqueueable vote and the JobEnqueued commit. */
  JOB_ENQUEUED("jobEnqueued"),
  TASK_ORDER("taskOrder"),
  PREEMPTABLE("preemptable"),
  RECLAIMABLE("reclaimable"),
  PREEMPTIVE("preemptive"),
  QUEUE_ORDER("queueOrder"),
  PREDICATE("predicate"),
  NODE_ORDER("nodeOrder"),
  JOB_STARVING("jobStarving"),
  OVERUSED("overused"),
  ALLOCATABLE("allocatable");

  private final String volcanoName;

  ExtensionPoint(String volcanoName) {
    this.volcanoName = volcanoName;
  }

  public String volcanoName() {
    return volcanoName;
  }

  public static ExtensionPoint parse(String text) {
    for (ExtensionPoint e : values()) {
      if (e.volcanoName.equals(text)) {
        return e;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not a Volcano extension point");
  }
}
