package batchsim.core.world.volcano;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.metrics.Decision;
import batchsim.core.metrics.Recorder;
import batchsim.core.model.Durations;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.volcano.Pod;
import batchsim.core.volcano.PodGroup;
import batchsim.core.volcano.PodGroupPhase;
import batchsim.core.volcano.PodState;
import batchsim.core.volcano.VolcanoEngine;
import batchsim.core.volcano.VolcanoHost;
import batchsim.core.world.EndedWorkloads;
import batchsim.core.world.WorldContext;
import batchsim.core.world.volcano.VolcanoWorkload.PodRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * A Volcano workload's way through the cluster: binds issued by a session complete after the bind delay and
 * pod start-up, the gang runs once every pod runs, finishes after its runtime (its PodGroup is deleted), and
 * loses its progress when a pod is evicted or fails; evicted pods leave their node after the termination
 * grace period and are Pending again. Keeps the per-queue counts the run samples and reports.
 */
final class GangLifecycle implements VolcanoHost, EventTarget {
  private final WorldContext world;
  private final SimulationSpec spec;
  private final EventLoop loop;
  private final VolcanoEngine engine;
  private final VolcanoQueues queues;
  private final ToIntFunction<String> poolOf;
  private final Runnable requestSession;
  private final long bindMs;
  private final long terminationGraceMs;
  /**
   * The workloads not yet ended (finished, or deleted and gone), in submission order: an ended one's record goes
   * to the world's sink and the run forgets it.
   */
  final Set<VolcanoWorkload> live = new LinkedHashSet<>();
  /** Ended workloads some timeline action names. */
  final EndedWorkloads ended;
  private long seq;
  /** Binds of the session being closed, per workload in bind order. */
  private final Map<VolcanoWorkload, List<Pod>> sessionBinds = new LinkedHashMap<>();
  /** Keeps each PodGroup's story (phases, gang conditions, binds, evictions, failures) for {@code explain}. */
  boolean explain;
  /** Per leaf queue: workloads waiting for their gang, holding it (admitted, not finished), and Inqueue. */
  final int[] pending;
  final int[] holding;
  final int[] inqueue;

  GangLifecycle(WorldContext world, VolcanoEngine engine, VolcanoQueues queues, ToIntFunction<String> poolOf,
      Runnable requestSession, long bindMs, long terminationGraceMs) {
    this.world = world;
    this.spec = world.spec();
    this.loop = world.loop();
    this.engine = engine;
    this.queues = queues;
    this.poolOf = poolOf;
    this.requestSession = requestSession;
    this.bindMs = bindMs;
    this.terminationGraceMs = terminationGraceMs;
    this.pending = new int[queues.leaves().size()];
    this.holding = new int[pending.length];
    this.inqueue = new int[pending.length];
    this.ended = new EndedWorkloads(spec.timeline());
  }

  private Recorder recorder() {
    return world.recorder();
  }

  /** A line of the decision log, in Volcano's words (PodGroup phases and conditions, pod events). */
  void log(VolcanoWorkload w, String condition, String reason, String message) {
    if (explain) {
      w.history.add(new Decision(loop.now(), condition, true, reason, message));
    }
  }

  /** The workload ended (finished, or deleted and its pods gone): its record goes out and the run forgets it. */
  void ended(VolcanoWorkload w, java.util.function.Supplier<String> why) {
    if (!live.remove(w)) {
      return;
    }
    if (!w.serving && why != null && ended.any()) { // worded only when a timeline action may name it
      ended.ended(w.seq, why.get(), w.spec.id());
    }
    emit(w);
  }

  /** The workload's record (and its story, when kept) to the world's sink. */
  void emit(VolcanoWorkload w) {
    world.workloads().accept(w.seq, w.record(), explain ? List.copyOf(w.history) : null);
  }

  private record Timed(VolcanoWorkload w, int generation) {
    @Override
    public String toString() {
      return w.toString();
    }
  }

  /** Pods of one workload bound in one session, whose binds complete together. */
  private record BindsDone(VolcanoWorkload w, List<Pod> pods, long boundAtMs) {
    @Override
    public String toString() {
      return w + " (" + pods.size() + " pods)";
    }
  }

  private record Gone(Pod pod) {
    @Override
    public String toString() {
      return pod.id();
    }
  }

  @Override
  public void handle(Event e) {
    switch (e.kind()) {
      case PODS_READY -> bindsDone((BindsDone) e.payload());
      case FINISH -> finish((Timed) e.payload());
      case EVICTION_COMPLETE -> gone(((Gone) e.payload()).pod());
      default -> throw new IllegalStateException("unexpected event under Volcano: " + e);
    }
  }

  /** A workload arrived as {@code pg} in its queue. */
  void arrived(VolcanoWorkload w) {
    w.seq = seq++;
    live.add(w);
    if (explain) {
      w.history = new ArrayList<>();
      log(w, PodGroupPhase.PENDING.volcanoName(), "Created",
          "PodGroup with minMember " + w.pods + " in queue " + w.queueName);
    }
    if (!w.serving) {
      recorder().arrival(w.queue);
    }
    pending[w.queue]++;
  }

  /** A serving Deployment scaled to zero: its PodGroup is deleted at once, its pods leave their nodes. */
  void deleteServing(VolcanoWorkload w) {
    if (w.deleted) {
      return;
    }
    w.generation++;
    for (Pod p : w.pg.pods()) {
      PodRun r = (PodRun) p.runtime;
      if (r.pool >= 0) {
        hold(r, -1);
        r.pool = -1;
      }
    }
    if (w.admitted) {
      holding[w.queue]--;
    } else {
      pending[w.queue]--;
    }
    if (w.pg.phase() == PodGroupPhase.INQUEUE) {
      inqueue[w.queue]--;
    }
    log(w, "Deleted", "ScaledToZero", "the Deployment scaled to zero");
    w.deleted = true;
    w.admitted = false;
    w.running = false;
    w.bound = 0;
    w.up = 0;
    w.releasing = 0;
    engine.deletePodGroup(w.pg);
    ended(w, null);
    requestSession.run();
  }

  /** The session closed: gangs bound whole are admitted; the binds complete after the bind delay. */
  void sessionClosed() {
    if (explain) {
      for (PodGroup pg : engine.podGroups()) {
        VolcanoWorkload w = (VolcanoWorkload) pg.runtime;
        String c = pg.lastCondition();
        if (!c.isEmpty() && !c.equals(w.loggedCondition)) {
          w.loggedCondition = c;
          int colon = c.indexOf(": "); // "<condition type>: <message>", as the session wrote it
          log(w, colon < 0 ? c : c.substring(0, colon), "Session", colon < 0 ? "" : c.substring(colon + 2));
        }
      }
    }
    for (Map.Entry<VolcanoWorkload, List<Pod>> b : sessionBinds.entrySet()) {
      VolcanoWorkload w = b.getKey();
      if (!w.admitted && w.bound == w.pods) {
        admitted(w);
      }
      loop.schedule(loop.now() + bindMs, EventKind.PODS_READY, this, new BindsDone(w, b.getValue(), loop.now()));
    }
    sessionBinds.clear();
  }

  // ------------------------------------------------------------------ VolcanoHost

  @Override
  public void onBind(Pod pod, String node) {
    PodRun r = (PodRun) pod.runtime;
    VolcanoWorkload w = r.workload;
    r.pool = poolOf.applyAsInt(node);
    r.up = false;
    w.bound++;
    hold(r, +1);
    sessionBinds.computeIfAbsent(w, k -> new ArrayList<>()).add(pod);
  }

  /** Volcano evicts tasks, not jobs: the rest of the gang keeps its nodes while the evicted pods terminate. */
  @Override
  public void onEvict(Pod pod, String node, String reason) {
    PodRun r = (PodRun) pod.runtime;
    VolcanoWorkload w = r.workload;
    unbound(r);
    w.releasing++;
    log(w, "Evicted", reasonName(reason), "pod " + pod.id() + " evicted from " + node);
    if (w.evictionSession != engine.sessions()) { // one eviction per workload and session
      w.evictionSession = engine.sessions();
      w.evictions++;
      if (!w.serving) {
        recorder().evicted(w.queue, w.spec.id(), loop.now(), "Preempted", reasonName(reason));
      }
      stop(w);
      if (w.admitted) {
        w.admitted = false;
        holding[w.queue]--;
        pending[w.queue]++;
      }
      w.evictedAtMs = loop.now();
    }
    loop.schedule(loop.now() + w.spec.graceMs(terminationGraceMs), EventKind.EVICTION_COMPLETE, this, new Gone(pod));
  }

  /** Volcano's eviction reasons ("reclaim", "preempt") as preemption reasons: Reclaim, Preempt. */
  private static String reasonName(String reason) {
    return reason.isEmpty() ? reason : Character.toUpperCase(reason.charAt(0)) + reason.substring(1);
  }

  @Override
  public void onPhaseChange(PodGroup pg, PodGroupPhase from, PodGroupPhase to) {
    VolcanoWorkload w = (VolcanoWorkload) pg.runtime;
    log(w, to.volcanoName(), "PhaseChanged", from.volcanoName() + " -> " + to.volcanoName());
    if (from == PodGroupPhase.INQUEUE) {
      inqueue[w.queue]--;
    }
    if (to == PodGroupPhase.INQUEUE) {
      inqueue[w.queue]++;
    }
  }

  // ------------------------------------------------------------------ lifecycle

  /** Every pod of the gang got its bind: Volcano's admission. */
  private void admitted(VolcanoWorkload w) {
    long now = loop.now();
    w.admitted = true;
    w.admittedMs = now;
    log(w, "Bound", "GangBound", "all " + w.pods + " pods bound");
    pending[w.queue]--;
    holding[w.queue]++;
    long first = -1;
    if (w.firstAdmittedMs == VolcanoWorkload.NEVER) {
      w.firstAdmittedMs = now;
      first = now - w.spec.createdMs();
    }
    if (!w.serving) {
      recorder().admitted(w.queue, first);
      if (w.evictedAtMs != VolcanoWorkload.NEVER) {
        recorder().readmitted(w.queue, w.spec.id(), now, now - w.evictedAtMs);
      }
    }
    w.evictedAtMs = VolcanoWorkload.NEVER;
  }

  private void bindsDone(BindsDone b) {
    VolcanoWorkload w = b.w();
    if (w.deleted) {
      return;
    }
    for (Pod p : b.pods()) {
      if (p.state() == PodState.BINDING && p.boundAtMs() == b.boundAtMs()) { // else evicted or lost since
        engine.bindComplete(p);
        ((PodRun) p.runtime).up = true;
        w.up++;
      }
    }
    if (!w.running && !w.finished && w.up == w.pods) {
      start(w);
    }
    requestSession.run(); // Running pods move the PodGroup to Running at the next session close
  }

  private void start(VolcanoWorkload w) {
    w.running = true;
    w.startedMs = loop.now();
    log(w, "PodsRunning", "Started", "every pod runs");
    if (w.serving) {
      return; // serving pods run until their Deployment scales down
    }
    if (w.startRecordedFor != w.admittedMs) { // a restart after lost pods is not a new start
      w.startRecordedFor = w.admittedMs;
      recorder().started(w.queue, loop.now() - w.spec.createdMs());
    }
    loop.schedule(loop.now() + w.spec.runtimeMs(), EventKind.FINISH, this, new Timed(w, w.generation));
  }

  private void finish(Timed t) {
    VolcanoWorkload w = t.w();
    if (t.generation() != w.generation || !w.running) {
      return;
    }
    for (Pod p : w.pg.pods()) {
      PodRun r = (PodRun) p.runtime;
      if (r.pool >= 0) {
        hold(r, -1);
        r.pool = -1;
      }
    }
    w.running = false;
    w.finished = true;
    w.finishedMs = loop.now();
    log(w, PodGroupPhase.COMPLETED.volcanoName(), "Finished", "");
    w.bound = 0;
    w.up = 0;
    holding[w.queue]--;
    if (w.pg.phase() == PodGroupPhase.INQUEUE) {
      inqueue[w.queue]--; // finished before a session saw its pods running
    }
    engine.deletePodGroup(w.pg); // a Completed PodGroup no longer takes part in scheduling
    recorder().finished(w.queue, loop.now() - w.spec.createdMs());
    ended(w, () -> "it finished at " + Durations.format(w.finishedMs));
    requestSession.run();
  }

  /** An evicted pod is gone from its node; it is Pending again. */
  private void gone(Pod p) {
    PodRun r = (PodRun) p.runtime;
    VolcanoWorkload w = r.workload;
    if (p.state() != PodState.RELEASING || w.deleted) {
      return;
    }
    hold(r, -1);
    r.pool = -1;
    engine.evictionComplete(p);
    if (--w.releasing == 0 && !w.serving) {
      recorder().requeued(w.queue);
    }
    requestSession.run();
  }

  /** Pods of a failed, drained or removed node fail; their controller recreates them Pending. */
  int podsLost(List<Pod> pods) {
    int lost = 0;
    for (Pod p : pods) {
      if (p.state() != PodState.BINDING && p.state() != PodState.RUNNING) {
        continue; // releasing pods are going anyway
      }
      PodRun r = (PodRun) p.runtime;
      log(r.workload, "PodFailed", "NodeLost", "pod " + p.id() + " failed with its node " + p.nodeName());
      unbound(r);
      hold(r, -1);
      r.pool = -1;
      engine.podFailed(p);
      stop(r.workload);
      lost++;
    }
    return lost;
  }

  /** A pod lost its bind: the gang is one short. */
  void unbound(PodRun r) {
    r.workload.bound--;
    if (r.up) {
      r.up = false;
      r.workload.up--;
    }
  }

  /** The workload stops running (a pod was evicted or failed): the work so far is lost. */
  void stop(VolcanoWorkload w) {
    if (!w.running) {
      return;
    }
    if (!w.serving) {
      List<PodSetSpec> podSets = w.spec.podSets();
      recorder().lostWork(w.queue, spec.resources(), podSets, i -> podSets.get(i).count(), loop.now() - w.startedMs);
    }
    w.running = false;
    w.generation++;
  }

  /** A pod takes (+1) or gives back (-1) room on its node and usage in its queue. */
  void hold(PodRun r, int sign) {
    world.capacity().allocation(r.pool, r.request, sign, loop.now());
    queues.usage(recorder(), r.workload.queueName, r.request, sign, loop.now());
  }
}
