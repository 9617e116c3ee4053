package batchsim.core.volcano;

import batchsim.core.volcano.Plugin.AllocatableFn;
import batchsim.core.volcano.Plugin.CompareFn;
import batchsim.core.volcano.Plugin.EventHandler;
import batchsim.core.volcano.Plugin.EvictableFn;
import batchsim.core.volcano.Plugin.FitError;
import batchsim.core.volcano.Plugin.NodeOrderFn;
import batchsim.core.volcano.Plugin.PredicateFn;
import batchsim.core.volcano.Plugin.PreemptiveFn;
import batchsim.core.volcano.Plugin.VictimQueueOrderFn;
import batchsim.core.volcano.Plugin.Victims;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The plugins' side of a session (Volcano's framework/session_plugins.go): the functions each plugin registers
 * in onSessionOpen, resolved against the tiers' extension-point switches once every plugin has opened
 * ({@link #freeze}), and Volcano's rules for combining them across tiers (votes, intersections, first
 * opinion). Actions ask the combined verdicts; statements fire the allocate/deallocate handlers.
 */
final class SessionPlugins {
  private final VolcanoConfig config;

  /** What each plugin registered, by plugin name. */
  private final Map<String, CompareFn<JobInfo>> jobOrderFns = new HashMap<>();
  private final Map<String, CompareFn<Queue>> queueOrderFns = new HashMap<>();
  private final Map<String, CompareFn<TaskInfo>> taskOrderFns = new HashMap<>();
  private final Map<String, VictimQueueOrderFn> victimQueueOrderFns = new HashMap<>();
  private final Map<String, PredicateFn> predicateFns = new HashMap<>();
  private final Map<String, NodeOrderFn> nodeOrderFns = new HashMap<>();
  private final Map<String, EvictableFn> preemptableFns = new HashMap<>();
  private final Map<String, EvictableFn> reclaimableFns = new HashMap<>();
  private final Map<String, Predicate<Queue>> overusedFns = new HashMap<>();
  private final Map<String, PreemptiveFn> preemptiveFns = new HashMap<>();
  private final Map<String, AllocatableFn> allocatableFns = new HashMap<>();
  private final Map<String, Predicate<JobInfo>> jobReadyFns = new HashMap<>();
  private final Map<String, ToIntFunction<JobInfo>> jobPipelinedFns = new HashMap<>();
  private final Map<String, Function<JobInfo, String>> jobValidFns = new HashMap<>();
  private final Map<String, ToIntFunction<JobInfo>> jobEnqueueableFns = new HashMap<>();
  private final Map<String, Consumer<JobInfo>> jobEnqueuedFns = new HashMap<>();
  private final Map<String, Predicate<JobInfo>> jobStarvingFns = new HashMap<>();
  private final List<EventHandler> eventHandlers = new ArrayList<>();

  SessionPlugins(VolcanoConfig config) {
    this.config = config;
  }

  // ------------------------------------------------------------------ registration

  void addJobOrderFn(String plugin, CompareFn<JobInfo> fn) {
    jobOrderFns.put(plugin, fn);
  }

  void addQueueOrderFn(String plugin, CompareFn<Queue> fn) {
    queueOrderFns.put(plugin, fn);
  }

  void addTaskOrderFn(String plugin, CompareFn<TaskInfo> fn) {
    taskOrderFns.put(plugin, fn);
  }

  void addVictimQueueOrderFn(String plugin, VictimQueueOrderFn fn) {
    victimQueueOrderFns.put(plugin, fn);
  }

  void addPredicateFn(String plugin, PredicateFn fn) {
    predicateFns.put(plugin, fn);
  }

  void addNodeOrderFn(String plugin, NodeOrderFn fn) {
    nodeOrderFns.put(plugin, fn);
  }

  void addPreemptableFn(String plugin, EvictableFn fn) {
    preemptableFns.put(plugin, fn);
  }

  void addReclaimableFn(String plugin, EvictableFn fn) {
    reclaimableFns.put(plugin, fn);
  }

  void addOverusedFn(String plugin, Predicate<Queue> fn) {
    overusedFns.put(plugin, fn);
  }

  void addPreemptiveFn(String plugin, PreemptiveFn fn) {
    preemptiveFns.put(plugin, fn);
  }

  void addAllocatableFn(String plugin, AllocatableFn fn) {
    allocatableFns.put(plugin, fn);
  }

  void addJobReadyFn(String plugin, Predicate<JobInfo> fn) {
    jobReadyFns.put(plugin, fn);
  }

  void addJobPipelinedFn(String plugin, ToIntFunction<JobInfo> fn) {
    jobPipelinedFns.put(plugin, fn);
  }

  /** A JobValid function returns null for a valid job, else the reason. */
  void addJobValidFn(String plugin, Function<JobInfo, String> fn) {
    jobValidFns.put(plugin, fn);
  }

  void addJobEnqueueableFn(String plugin, ToIntFunction<JobInfo> fn) {
    jobEnqueueableFns.put(plugin, fn);
  }

  void addJobEnqueuedFn(String plugin, Consumer<JobInfo> fn) {
    jobEnqueuedFns.put(plugin, fn);
  }

  void addJobStarvingFn(String plugin, Predicate<JobInfo> fn) {
    jobStarvingFns.put(plugin, fn);
  }

  void addEventHandler(EventHandler h) {
    eventHandlers.add(h);
  }

  // ------------------------------------------------------------------ aggregation across tiers

  /** The functions of each extension point, per tier, as switched on; resolved once all plugins opened. */
  private List<List<EvictableFn>> reclaimableTiers;
  private List<List<EvictableFn>> preemptableTiers;
  private List<List<ToIntFunction<JobInfo>>> pipelinedTiers;
  private List<List<ToIntFunction<JobInfo>>> enqueueableTiers;
  private List<List<Predicate<JobInfo>>> starvingTiers;
  private List<Predicate<Queue>> overused;
  private List<PreemptiveFn> preemptive;
  private List<AllocatableFn> allocatable;
  private List<Predicate<JobInfo>> jobReady;
  private List<Function<JobInfo, String>> jobValid;
  private List<Consumer<JobInfo>> jobEnqueued;
  private List<CompareFn<JobInfo>> jobOrder;
  private List<CompareFn<Queue>> queueOrder;
  private List<CompareFn<TaskInfo>> taskOrder;
  private List<VictimQueueOrderFn> victimQueueOrder;
  private List<PredicateFn> predicates;
  private List<NodeOrderFn> nodeOrder;

  /** Resolves the registered functions against the tiers' switches (call after every plugin opened). */
  void freeze() {
    reclaimableTiers = byTier(reclaimableFns, ExtensionPoint.RECLAIMABLE);
    preemptableTiers = byTier(preemptableFns, ExtensionPoint.PREEMPTABLE);
    pipelinedTiers = byTier(jobPipelinedFns, ExtensionPoint.JOB_PIPELINED);
    enqueueableTiers = byTier(jobEnqueueableFns, ExtensionPoint.JOB_ENQUEUED);
    starvingTiers = byTier(jobStarvingFns, ExtensionPoint.JOB_STARVING);
    overused = flat(overusedFns, ExtensionPoint.OVERUSED);
    preemptive = flat(preemptiveFns, ExtensionPoint.PREEMPTIVE);
    allocatable = flat(allocatableFns, ExtensionPoint.ALLOCATABLE);
    jobReady = flat(jobReadyFns, ExtensionPoint.JOB_READY);
    jobValid = flat(jobValidFns, null); // JobValid has no switch
    jobEnqueued = flat(jobEnqueuedFns, ExtensionPoint.JOB_ENQUEUED);
    jobOrder = flat(jobOrderFns, ExtensionPoint.JOB_ORDER);
    queueOrder = flat(queueOrderFns, ExtensionPoint.QUEUE_ORDER);
    taskOrder = flat(taskOrderFns, ExtensionPoint.TASK_ORDER);
    victimQueueOrder = flat(victimQueueOrderFns, null); // VictimQueueOrderFn has no switch
    predicates = flat(predicateFns, ExtensionPoint.PREDICATE);
    nodeOrder = flat(nodeOrderFns, ExtensionPoint.NODE_ORDER);
  }

  private <F> List<List<F>> byTier(Map<String, F> fns, ExtensionPoint point) {
    List<List<F>> out = new ArrayList<>();
    for (List<PluginSpec> tier : config.tiers()) {
      List<F> t = new ArrayList<>();
      for (PluginSpec p : tier) {
        F f = fns.get(p.name());
        if (f != null && (point == null || p.isEnabled(point))) {
          t.add(f);
        }
      }
      out.add(t);
    }
    return out;
  }

  private <F> List<F> flat(Map<String, F> fns, ExtensionPoint point) {
    List<F> out = new ArrayList<>();
    for (List<F> t : byTier(fns, point)) {
      out.addAll(t);
    }
    return out;
  }

  /** Reclaimable: per tier, the intersection of the enabled plugins' victims; the first deciding tier wins. */
  List<TaskInfo> reclaimable(TaskInfo reclaimer, List<TaskInfo> reclaimees) {
    return victims(reclaimableTiers, reclaimer, reclaimees);
  }

  List<TaskInfo> preemptable(TaskInfo preemptor, List<TaskInfo> preemptees) {
    return victims(preemptableTiers, preemptor, preemptees);
  }

  private static List<TaskInfo> victims(List<List<EvictableFn>> tiers, TaskInfo preemptor, List<TaskInfo> candidates) {
    List<TaskInfo> victims = null;
    for (List<EvictableFn> tier : tiers) {
      for (EvictableFn fn : tier) {
        Victims v = fn.select(preemptor, candidates);
        if (v.vote() == Plugin.ABSTAIN) {
          continue;
        }
        if (v.tasks().isEmpty()) {
          victims = null;
          break;
        }
        if (victims == null) {
          victims = new ArrayList<>(v.tasks());
        } else {
          List<TaskInfo> both = new ArrayList<>();
          for (TaskInfo a : victims) {
            for (TaskInfo c : v.tasks()) {
              if (a.uid.equals(c.uid)) {
                both.add(a);
              }
            }
          }
          victims = both;
        }
      }
      if (victims != null) {
        return victims;
      }
    }
    return victims == null ? List.of() : victims;
  }

  /** Overused: any enabled plugin says so. */
  boolean overused(Queue q) {
    for (Predicate<Queue> fn : overused) {
      if (fn.test(q)) {
        return true;
      }
    }
    return false;
  }

  /** Preemptive: every enabled plugin agrees. */
  boolean preemptive(Queue q, List<TaskInfo> candidates) {
    for (PreemptiveFn fn : preemptive) {
      if (!fn.preemptive(q, candidates)) {
        return false;
      }
    }
    return true;
  }

  /** Allocatable: every enabled plugin agrees. */
  boolean allocatable(Queue q, TaskInfo candidate) {
    for (AllocatableFn fn : allocatable) {
      if (!fn.allocatable(q, candidate)) {
        return false;
      }
    }
    return true;
  }

  /** JobReady: every enabled plugin agrees (no plugin: ready). */
  boolean jobReady(JobInfo job) {
    for (Predicate<JobInfo> fn : jobReady) {
      if (!fn.test(job)) {
        return false;
      }
    }
    return true;
  }

  /** JobPipelined: a Reject anywhere fails; a Permit decides its tier; no decision: pipelined. */
  boolean jobPipelined(JobInfo job) {
    return vote(pipelinedTiers, job);
  }

  /** JobEnqueueable: same vote rules as JobPipelined; the votes must not change anything (PR #5339). */
  boolean jobEnqueueable(JobInfo job) {
    return vote(enqueueableTiers, job);
  }

  private static boolean vote(List<List<ToIntFunction<JobInfo>>> tiers, JobInfo job) {
    for (List<ToIntFunction<JobInfo>> tier : tiers) {
      boolean permitted = false;
      for (ToIntFunction<JobInfo> fn : tier) {
        int res = fn.applyAsInt(job);
        if (res < 0) {
          return false;
        }
        if (res > 0) {
          permitted = true;
        }
      }
      if (permitted) {
        return true;
      }
    }
    return true;
  }

  /** JobEnqueued: the commit hooks, run only after the aggregate vote permitted. */
  void jobEnqueued(JobInfo job) {
    for (Consumer<JobInfo> fn : jobEnqueued) {
      fn.accept(job);
    }
  }

  /** JobStarving: the first tier with an enabled function decides (all must agree); none: not starving. */
  boolean jobStarving(JobInfo job) {
    for (List<Predicate<JobInfo>> tier : starvingTiers) {
      if (tier.isEmpty()) {
        continue;
      }
      for (Predicate<JobInfo> fn : tier) {
        if (!fn.test(job)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /** JobValid: every registered plugin (no switch), first failure wins; null when valid. */
  String jobValid(JobInfo job) {
    for (Function<JobInfo, String> fn : jobValid) {
      String r = fn.apply(job);
      if (r != null) {
        return r;
      }
    }
    return null;
  }

  /** JobOrderCompareFn: the first enabled plugin with an opinion. */
  int jobOrderCompare(JobInfo l, JobInfo r) {
    for (CompareFn<JobInfo> fn : jobOrder) {
      int c = fn.compare(l, r);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** JobOrderFn: plugins, then creation time, then UID. */
  boolean jobOrderLess(JobInfo l, JobInfo r) {
    int c = jobOrderCompare(l, r);
    if (c != 0) {
      return c < 0;
    }
    if (l.createdMs == r.createdMs) {
      return l.uid.compareTo(r.uid) < 0;
    }
    return l.createdMs < r.createdMs;
  }

  /** QueueOrderFn: plugins, then creation time, then UID (name). */
  boolean queueOrderLess(Queue l, Queue r) {
    for (CompareFn<Queue> fn : queueOrder) {
      int c = fn.compare(l, r);
      if (c != 0) {
        return c < 0;
      }
    }
    if (l.createdMs != r.createdMs) {
      return l.createdMs < r.createdMs;
    }
    return l.name.compareTo(r.name) < 0;
  }

  /** VictimQueueOrderFn: registered functions (no switch), else the reverse of the queue order. */
  boolean victimQueueOrderLess(Queue l, Queue r, Queue preemptor) {
    for (VictimQueueOrderFn fn : victimQueueOrder) {
      int c = fn.compare(l, r, preemptor);
      if (c != 0) {
        return c < 0;
      }
    }
    return !queueOrderLess(l, r);
  }

  /** TaskOrderFn: plugins, then Volcano's pod-index order. */
  boolean taskOrderLess(TaskInfo l, TaskInfo r) {
    for (CompareFn<TaskInfo> fn : taskOrder) {
      int c = fn.compare(l, r);
      if (c != 0) {
        return c < 0;
      }
    }
    return TaskInfo.defaultLess(l, r);
  }

  /** PredicateFn: the first enabled plugin that refuses. */
  FitError predicate(TaskInfo task, NodeInfo node) {
    for (PredicateFn fn : predicates) {
      FitError e = fn.check(task, node);
      if (e != null) {
        return e;
      }
    }
    return null;
  }

  /** PredicateForPreemptAction: only UnschedulableAndUnresolvable failures exclude a node. */
  FitError predicateForPreempt(TaskInfo task, NodeInfo node) {
    FitError e = predicate(task, node);
    return e != null && !e.resolvable() ? e : null;
  }

  /** The sum of the enabled node-order scores. */
  double nodeScore(TaskInfo task, NodeInfo node) {
    double s = 0;
    for (NodeOrderFn fn : nodeOrder) {
      s += fn.score(task, node);
    }
    return s;
  }

  boolean hasNodeOrder() {
    return !nodeOrder.isEmpty();
  }

  // ------------------------------------------------------------------ events

  void fireAllocate(TaskInfo t) {
    for (EventHandler h : eventHandlers) {
      if (h.allocate() != null) {
        h.allocate().accept(t);
      }
    }
  }

  void fireDeallocate(TaskInfo t) {
    for (EventHandler h : eventHandlers) {
      if (h.deallocate() != null) {
        h.deallocate().accept(t);
      }
    }
  }
}
