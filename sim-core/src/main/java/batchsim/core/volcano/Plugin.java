package batchsim.core.volcano;

/**
 * A Volcano scheduler plugin. A fresh instance is built for every session (as Volcano's plugin builders do);
 * {@link #onSessionOpen} registers the plugin's functions with the session.
 */
interface Plugin {
  String name();

  void onSessionOpen(Session ssn);

  default void onSessionClose(Session ssn) {}

  /** Builds the plugin a tier entry names. */
  static Plugin create(PluginSpec spec) {
    switch (spec.name()) {
      case "capacity": return new CapacityPlugin(spec);
      case "proportion": return new ProportionPlugin();
      case "gang": return new GangPlugin();
      case "priority": return new PriorityPlugin();
      case "drf": return new DrfPlugin();
      case "predicates": return new PredicatesPlugin();
      case "nodeorder": return new NodeOrderPlugin();
      case "overcommit": return new OvercommitPlugin(spec);
      case "conformance": return new ConformancePlugin();
      case RejecterPlugin.NAME: return new RejecterPlugin(spec);
      default: throw new IllegalArgumentException("unknown Volcano plugin '" + spec.name() + "'");
    }
  }

  /** Votes: Volcano's util.Permit / Abstain / Reject. */
  int PERMIT = 1;
  int ABSTAIN = 0;
  int REJECT = -1;

  /** A victim selection with its vote (Volcano's EvictableFn result). */
  record Victims(java.util.List<TaskInfo> tasks, int vote) {}

  /** Volcano's EvictableFn (preemptable, reclaimable). */
  @FunctionalInterface
  interface EvictableFn {
    Victims select(TaskInfo preemptor, java.util.List<TaskInfo> candidates);
  }

  /** A compare function: negative when l goes first, 0 when the plugin has no opinion. */
  @FunctionalInterface
  interface CompareFn<T> {
    int compare(T l, T r);
  }

  @FunctionalInterface
  interface VictimQueueOrderFn {
    int compare(Queue l, Queue r, Queue preemptor);
  }

  @FunctionalInterface
  interface AllocatableFn {
    boolean allocatable(Queue q, TaskInfo candidate);
  }

  @FunctionalInterface
  interface PreemptiveFn {
    boolean preemptive(Queue q, java.util.List<TaskInfo> candidates);
  }

  /** A predicate result: null when the task may go to the node, else why not. */
  @FunctionalInterface
  interface PredicateFn {
    FitError check(TaskInfo task, NodeInfo node);
  }

  /** Why a task does not fit a node; {@code resolvable} is false for UnschedulableAndUnresolvable. */
  record FitError(String reason, boolean resolvable) {}

  @FunctionalInterface
  interface NodeOrderFn {
    double score(TaskInfo task, NodeInfo node);
  }

  /** Allocate/deallocate callbacks (Volcano's EventHandler). */
  record EventHandler(java.util.function.Consumer<TaskInfo> allocate, java.util.function.Consumer<TaskInfo> deallocate) {}
}
