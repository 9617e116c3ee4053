package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One scheduling session (Volcano's framework.Session): a snapshot of queues, jobs and ready nodes, the
 * functions the plugins registered and how they combine ({@link SessionPlugins}), and the orderings the actions
 * build from them (pending tasks, victims, nodes). Actions read and change the snapshot through statements;
 * what they commit becomes the session's binds and evictions.
 */
final class Session {
  final VolcanoEngine engine;
  final long uid;
  final long nowMs;
  final Dims dims;
  final VolcanoConfig config;
  final List<JobInfo> jobs = new ArrayList<>();
  final Map<String, JobInfo> jobsById = new HashMap<>();
  final List<Queue> queues;
  final Map<String, Queue> queuesByName;
  final List<NodeInfo> nodes = new ArrayList<>();
  final Map<String, NodeInfo> nodesByName = new HashMap<>();
  final Res totalResource;

  /** The plugins' registered functions and how they combine (session_plugins.go). */
  final SessionPlugins plugins;

  /** Committed binds, in commit order. */
  final List<TaskInfo> dispatched = new ArrayList<>();
  /** Committed evictions and their reasons, in commit order. */
  final Map<TaskInfo, String> evicted = new LinkedHashMap<>();
  /** Jobs gang marked Unschedulable at session close. */
  final Set<JobInfo> unschedulable = new HashSet<>();
  /** Why each rejected job was not enqueued (Volcano's PodGroup event), formatted only when asked for. */
  final Map<JobInfo, Supplier<String>> enqueueRejections = new LinkedHashMap<>();

  Session(VolcanoEngine engine, long uid, long nowMs) {
    this.engine = engine;
    this.uid = uid;
    this.nowMs = nowMs;
    this.dims = engine.dims;
    this.config = engine.config;
    this.plugins = new SessionPlugins(config);
    this.queues = engine.queueList();
    this.queuesByName = engine.queueMap();
    this.totalResource = new Res(dims.size());
    for (Node n : engine.nodeList()) {
      if (!n.ready) {
        continue;
      }
      NodeInfo ni = new NodeInfo(n);
      nodes.add(ni);
      nodesByName.put(ni.name, ni);
      totalResource.add(n.allocatable);
    }
    for (PodGroup pg : engine.podGroupList()) {
      JobInfo job = new JobInfo(pg, dims.pods, dims.size());
      for (Pod p : pg.pods) {
        TaskInfo t = new TaskInfo(p, job);
        job.addTask(t);
        if (p.node != null && !t.status.completed()) {
          NodeInfo ni = nodesByName.get(p.node.name);
          if (ni != null) {
            ni.addTask(t);
          }
        }
      }
      // Volcano's snapshot skips a job without a PodGroup or whose queue is gone; its pods still hold their nodes.
      if (engine.scheduled(pg)) {
        jobs.add(job);
        jobsById.put(job.uid, job);
      }
    }
  }

  /** The job takes part in this session (reclaim and preempt skip node tasks of jobs outside it). */
  boolean inSession(JobInfo job) {
    return jobsById.get(job.uid) == job;
  }

  /** Resolves the registered functions against the tiers' switches (call after every plugin opened). */
  void freeze() {
    plugins.freeze();
  }

  /** The job's pending tasks that {@code keep} accepts, in task order. */
  GoHeap<TaskInfo> pendingTasks(JobInfo job, Predicate<TaskInfo> keep) {
    GoHeap<TaskInfo> tasks = new GoHeap<>(plugins::taskOrderLess);
    for (TaskInfo t : job.tasks) {
      if (t.status == TaskStatus.PENDING && keep.test(t)) {
        tasks.push(t);
      }
    }
    return tasks;
  }

  /**
   * The best of {@code candidates} by node score; ties (Volcano picks one at random) go to the node declared
   * first, so runs are deterministic.
   */
  NodeInfo bestNode(TaskInfo task, List<NodeInfo> candidates) {
    if (candidates.isEmpty()) {
      return null;
    }
    if (candidates.size() == 1 || !plugins.hasNodeOrder()) {
      return first(candidates);
    }
    NodeInfo best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (NodeInfo n : candidates) {
      double s = plugins.nodeScore(task, n);
      if (s > bestScore || (s == bestScore && n.node.index < best.node.index)) {
        best = n;
        bestScore = s;
      }
    }
    return best;
  }

  /** Candidates ordered by descending node score, ties by declaration order (util.SortNodes). */
  List<NodeInfo> sortNodes(TaskInfo task, List<NodeInfo> candidates) {
    List<NodeInfo> out = new ArrayList<>(candidates);
    if (!plugins.hasNodeOrder()) {
      out.sort((a, b) -> Integer.compare(a.node.index, b.node.index));
      return out;
    }
    Map<NodeInfo, Double> score = new HashMap<>();
    for (NodeInfo n : out) {
      score.put(n, plugins.nodeScore(task, n));
    }
    out.sort((a, b) -> {
      int c = Double.compare(score.get(b), score.get(a));
      return c != 0 ? c : Integer.compare(a.node.index, b.node.index);
    });
    return out;
  }

  private static NodeInfo first(List<NodeInfo> nodes) {
    NodeInfo best = nodes.get(0);
    for (NodeInfo n : nodes) {
      if (n.node.index < best.node.index) {
        best = n;
      }
    }
    return best;
  }

  /**
   * BuildVictimsPriorityQueue: same job → reverse task order; different queues → victim queue order; else job
   * order (reversed) then reverse task order.
   */
  GoHeap<TaskInfo> victimsQueue(List<TaskInfo> victims, TaskInfo preemptor) {
    GoHeap<TaskInfo> q = new GoHeap<>((l, r) -> {
      if (l.job == r.job) {
        return !plugins.taskOrderLess(l, r);
      }
      if (l.job.queue != r.job.queue) {
        return plugins.victimQueueOrderLess(l.job.queue, r.job.queue, preemptor.job.queue);
      }
      int c = plugins.jobOrderCompare(l.job, r.job);
      if (c != 0) {
        return c > 0;
      }
      return !plugins.taskOrderLess(l, r);
    });
    for (TaskInfo v : victims) {
      q.push(v);
    }
    return q;
  }

  // ------------------------------------------------------------------ task state changes

  /** Binds the task (it was Allocated): the bind goes out at session end. */
  void dispatch(TaskInfo t) {
    t.job.updateTaskStatus(t, TaskStatus.BINDING);
    dispatched.add(t);
  }

  /** Session.Allocate (used by backfill): allocate and, once the job is ready, dispatch its tasks. */
  void allocateNow(TaskInfo t, NodeInfo node) {
    t.job.updateTaskStatus(t, TaskStatus.ALLOCATED);
    node.addTask(t);
    plugins.fireAllocate(t);
    if (plugins.jobReady(t.job)) {
      for (TaskInfo x : new ArrayList<>(t.job.tasks)) {
        if (x.status == TaskStatus.ALLOCATED) {
          dispatch(x);
        }
      }
    }
  }

  Statement statement() {
    return new Statement(this);
  }

  /** Volcano's JobUpdater + getPodGroupPhase: the phase each PodGroup leaves the session with. */
  static PodGroupPhase phaseAtClose(JobInfo job, boolean unschedulable) {
    if (job.count(TaskStatus.RUNNING) != 0 && unschedulable) {
      return PodGroupPhase.UNKNOWN;
    }
    int scheduled = job.scheduledTaskNum() + job.releasingScheduledTaskNum();
    int completed = job.count(TaskStatus.SUCCEEDED) + job.count(TaskStatus.FAILED);
    if (scheduled >= job.pg.spec.minMember()) {
      return scheduled == completed ? PodGroupPhase.COMPLETED : PodGroupPhase.RUNNING;
    }
    if (job.phase != PodGroupPhase.INQUEUE) {
      return PodGroupPhase.PENDING;
    }
    return job.phase;
  }
}
