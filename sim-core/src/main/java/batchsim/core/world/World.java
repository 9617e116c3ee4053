package batchsim.core.world;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.metrics.RunResult;
import batchsim.core.model.Durations;
import batchsim.core.model.SimulationSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * One deterministic run of a scenario: the only event loop. Each event goes to the part that scheduled it —
 * a {@link SimulatedCluster}'s nodes, timeline, arrivals, churn or sampler, or its {@link AdmissionEngine}
 * (Kueue or Volcano) — and, in checked mode, every invariant is checked after every event. Single-threaded;
 * the same scenario and seed give the same result.
 *
 * <p>The parts get what they need passed in and never call back into the world. A run has one cluster, or
 * under MultiKueue a manager and its workers ({@link #addCluster}): each a {@link SimulatedCluster} of its
 * own on this one loop.
 */
public final class World {
  private static final int RECENT_EVENTS = 32;

  private final SimulationSpec spec;
  private final EventLoop loop = new EventLoop();
  private final SimulatedCluster cluster;
  /** MultiKueue's worker clusters, in the order they were added (after the manager, {@link #cluster}). */
  private final List<SimulatedCluster> workers = new ArrayList<>();
  private final List<String> workerNames = new ArrayList<>();
  private java.util.function.Function<List<RunResult>, List<batchsim.core.metrics.ClusterResult>> workerResults;
  private final ArrayDeque<String> recent = new ArrayDeque<>();
  private boolean checked;
  private long maxEvents = Long.MAX_VALUE;
  private LongConsumer progress;
  private Consumer<String> stalls;
  private boolean stallReported;
  private java.util.function.LongPredicate stopWhen;
  private Scrapes scrapes;

  /** A world of one cluster, whose admission engine {@code engineFactory} builds from the cluster's context. */
  public World(SimulationSpec spec, Function<WorldContext, AdmissionEngine> engineFactory) {
    this.spec = spec;
    this.cluster = new SimulatedCluster(spec, loop, engineFactory);
  }

  /**
   * Adds a cluster of its own (nodes, queues, engine, books) on this world's loop — a MultiKueue worker — and
   * returns its engine for the caller to connect. Its workload records are dropped (the manager's records
   * are the workloads'); its random streams open after the first cluster's, so adding one changes nothing of
   * the first cluster's draws.
   */
  public AdmissionEngine addCluster(String name, SimulationSpec workerSpec,
      Function<WorldContext, AdmissionEngine> engineFactory) {
    SimulatedCluster c = new SimulatedCluster(workerSpec, loop, engineFactory);
    c.streamWorkloads((seq, record, decisions) -> { });
    workers.add(c);
    workerNames.add(name);
    return c.engine();
  }

  /** Turns the added clusters' results (in the order added) into the result's per-cluster part. */
  public World workerResults(
      java.util.function.Function<List<RunResult>, List<batchsim.core.metrics.ClusterResult>> results) {
    this.workerResults = results;
    return this;
  }

  /** Called with the virtual time every 1,024 events (the CLI shows progress; it reads the wall clock then). */
  public World progress(LongConsumer listener) {
    this.progress = listener;
    return this;
  }

  /**
   * Hears, once, when the run stalls: workloads wait and no event is left that could change that (only
   * samples and status records, which change nothing). The run still goes on to its horizon, so its outputs
   * are those of a run without the listener.
   */
  public World stalls(Consumer<String> listener) {
    this.stalls = listener;
    return this;
  }

  /** Keeps the engine's decision log. */
  public World explain(boolean on) {
    cluster.explain(on);
    return this;
  }

  /**
   * Streams the engine's status record, and its metric samples at every sample time, to {@code sink}.
   *
   * @throws IllegalArgumentException when the engine has no status record
   */
  public World recordStatus(StatusSink sink) {
    if (!cluster.recordStatus(sink)) {
      throw new IllegalArgumentException("the status record is Kueue's: this scenario runs under Volcano");
    }
    return this;
  }

  /**
   * Hands the engine's metric model to {@code sink} at 0, every {@code intervalMs} and at the end of the run,
   * without changing the run (see {@link Scrapes}).
   */
  public World scrapeMetrics(long intervalMs, MetricsSink sink) {
    this.scrapes = new Scrapes(loop, cluster.engine(), intervalMs, sink);
    return this;
  }

  /**
   * Streams each workload's record (and, when explained, its decision log) to {@code sink} as the run goes:
   * the result then lists no workloads. Without a sink the result keeps them all, in arrival order.
   */
  public World streamWorkloads(WorkloadSink sink) {
    cluster.streamWorkloads(sink);
    return this;
  }

  /** Checks every invariant after every event (slower; on in tests and with --check). */
  public World checked(boolean on) {
    this.checked = on;
    cluster.engine().checked(on);
    workers.forEach(w -> w.engine().checked(on));
    return this;
  }

  /**
   * Ends the run early: before each event, {@code stop} is asked with the event's time; on true the run ends
   * there (the result is that of a run with its horizon then). {@code batchsim eta} stops once its jobs
   * started; without it the run goes to its horizon as always.
   */
  public World stopWhen(java.util.function.LongPredicate stop) {
    this.stopWhen = stop;
    return this;
  }

  /** Stops the run with an exception after this many events (a guard for tests and debugging). */
  public World maxEvents(long max) {
    this.maxEvents = max;
    return this;
  }

  /** Runs to the horizon or until no events remain; single-threaded and deterministic. */
  public RunResult run() {
    start();
    long horizon = spec.horizonMs();
    Event e;
    while ((e = next(horizon)) != null) {
      if (stopWhen != null && stopWhen.test(loop.now())) {
        horizon = loop.now();
        break;
      }
      e.dispatch();
      if (checked) {
        check(e);
      }
      reportStall();
      if (progress != null && (loop.processed() & 0x3FF) == 0) {
        progress.accept(loop.now());
      }
      if (loop.processed() > maxEvents) {
        throw new InvariantViolation(loop.now(), List.of("more than " + maxEvents + " events"), new ArrayList<>(recent));
      }
    }
    reportStall(); // a run whose events ran out before a sample came
    long end = horizon == SimulationSpec.NO_HORIZON ? loop.now() : horizon;
    if (scrapes != null) {
      scrapes.end(end);
    }
    loop.advanceTo(end);
    RunResult result = cluster.result(end, loop.processed());
    if (workers.isEmpty()) {
      return result;
    }
    List<RunResult> each = new ArrayList<>();
    workers.forEach(w -> each.add(w.result(end, loop.processed())));
    return result.withClusters(workerResults.apply(each));
  }

  /** The next event up to {@code horizon}, after the metric scrapes due before it. */
  private Event next(long horizon) {
    if (scrapes != null) {
      Event e = loop.peek();
      scrapes.before(e == null || e.time() > horizon ? null : e);
    }
    return loop.next(horizon);
  }

  /** Runs until {@code untilMs} (inclusive) and stops, leaving the state inspectable (tests). */
  public void runUntil(long untilMs) {
    start();
    Event e;
    while ((e = loop.next(untilMs)) != null) {
      e.dispatch();
    }
  }

  /** The admission engine, for tests that inspect its state. */
  public AdmissionEngine engine() {
    return cluster.engine();
  }

  /** Serving churn, for tests that break it on purpose. */
  ServingChurn churn() {
    return cluster.churn();
  }

  /**
   * Tells the listener, once, when workloads wait and only samples and status records are left to come
   * (they change nothing). Events past the horizon still count: the run merely stops before them.
   */
  private void reportStall() {
    if (stalls == null || stallReported
        || loop.pending() != loop.pending(EventKind.SAMPLE) + loop.pending(EventKind.STATUS_RECORD)
            + loop.pending(EventKind.LOCAL_QUEUE_USAGE_SAMPLE)) {
      return;
    }
    String stuck = cluster.engine().stuck();
    if (stuck != null) {
      stallReported = true;
      stalls.accept("at " + Durations.format(loop.now()) + " nothing can change any more: " + stuck
          + "; no event is left that could add capacity or release quota");
    }
  }

  private void start() {
    SplittableRandom root = new SplittableRandom(spec.seed());
    cluster.start(root);
    for (SimulatedCluster w : workers) {
      w.start(root.split());
    }
  }

  private void check(Event e) {
    recent.addLast(e.toString());
    if (recent.size() > RECENT_EVENTS) {
      recent.removeFirst();
    }
    List<String> v = cluster.checkInvariants();
    for (int i = 0; i < workers.size() && v.isEmpty(); i++) {
      String name = workerNames.get(i);
      v = workers.get(i).checkInvariants().stream().map(m -> "worker " + name + ": " + m).toList();
    }
    if (!v.isEmpty()) {
      throw new InvariantViolation(loop.now(), v, new ArrayList<>(recent));
    }
  }
}
