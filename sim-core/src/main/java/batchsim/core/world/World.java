package batchsim.core.world;

import batchsim.core.cluster.ClusterState;
import batchsim.core.cluster.Node;
import batchsim.core.cluster.PodBinder;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventLoop;
import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.Recorder;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * One deterministic run of a scenario: the only event loop. The world owns the clock, the nodes and the
 * kube-scheduler emulation, arrivals, the timeline, node failures, serving churn, capacity accounting, sampling,
 * the invariant checker and the result; the {@link AdmissionEngine} (Kueue or Volcano) decides admission and
 * gets back the events it scheduled. Single-threaded; the same scenario and seed give the same result.
 *
 * <p>The world's parts ({@link Nodes}, {@link Timeline}, {@link ServingChurn}, {@link Arrivals}, {@link Sampler})
 * get what they need passed in and never call back into the world. One world is one cluster; several clusters
 * on one loop (MultiKueue) would be several {@link WorldContext}s sharing the loop.
 */
public final class World {
  private static final int RECENT_EVENTS = 32;

  private final SimulationSpec spec;
  private final EventLoop loop = new EventLoop();
  private final AdmissionEngine engine;
  private final Recorder recorder;
  private final CapacityAccounting capacity;
  private final Arrivals arrivals;
  private final Nodes nodes;
  private final Timeline timeline;
  private final ServingChurn churn;
  private final Sampler sampler;
  private final ClusterState cluster;
  /** Arrivals whose LocalQueue no engine queue takes. */
  private final List<WorkloadSpec> rejected = new ArrayList<>();
  private final ArrayDeque<String> recent = new ArrayDeque<>();
  private boolean checked;
  private long maxEvents = Long.MAX_VALUE;
  private LongConsumer progress;

  /** Builds the world and, with its context, the admission engine. */
  public World(SimulationSpec spec, Function<WorldContext, AdmissionEngine> engineFactory) {
    this.spec = spec;
    this.cluster = new ClusterState(spec.resources(), spec.nodePools(), spec.podScheduling().scoring());
    EngineHolder holder = new EngineHolder();
    PodBinder binder = new PodBinder(cluster, spec.flavors(), new PodBinder.BindListener() {
      @Override
      public void podBound(Object owner, int pool, long[] request, int sign) {
        holder.capacity.allocation(pool, request, sign, loop.now());
      }

      @Override
      public void nodeEmptied(Node n) {
        holder.engine.nodeEmptied(n);
      }
    });
    WorldContext ctx = new WorldContext(spec, loop, cluster, binder);
    this.engine = engineFactory.apply(ctx);
    this.recorder = new Recorder(engine.reportedQueues(), CapacityAccounting.slots(spec), engine.usageSlots(),
        spec.nodePools().size());
    this.capacity = new CapacityAccounting(spec, recorder);
    this.arrivals = new Arrivals(loop, spec.workloadSources(), this::arrive);
    this.nodes = new Nodes(spec, loop, cluster, binder, recorder, capacity, engine);
    this.timeline = new Timeline(loop, nodes, arrivals, engine);
    this.churn = new ServingChurn(spec, loop, engine);
    ctx.recorder = recorder;
    ctx.capacity = capacity;
    ctx.nodes = nodes;
    holder.engine = engine;
    holder.capacity = capacity;
    this.sampler = new Sampler(loop, spec.sampleIntervalMs(),
        List.of(engine.queueSamples(), capacity, engine.topologySamples()));
  }

  /** The binder's listener is made before the engine and the books it forwards to. */
  private static final class EngineHolder {
    AdmissionEngine engine;
    CapacityAccounting capacity;
  }

  /** Called with the virtual time every 65,536 events (the CLI shows progress on a terminal). */
  public World progress(LongConsumer listener) {
    this.progress = listener;
    return this;
  }

  /** Keeps the engine's decision log. */
  public World explain(boolean on) {
    engine.explain(on);
    return this;
  }

  /** Checks every invariant after every event (slower; on in tests and with --check). */
  public World checked(boolean on) {
    this.checked = on;
    engine.checked(on);
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
    while ((e = loop.next(horizon)) != null) {
      e.dispatch();
      if (checked) {
        check(e);
      }
      if (progress != null && (loop.processed() & 0xFFFF) == 0) {
        progress.accept(loop.now());
      }
      if (loop.processed() > maxEvents) {
        throw new InvariantViolation(loop.now(), List.of("more than " + maxEvents + " events"), new ArrayList<>(recent));
      }
    }
    long end = horizon == SimulationSpec.NO_HORIZON ? loop.now() : horizon;
    loop.advanceTo(end);
    arrivals.close();
    return result(end);
  }

  /** Runs until {@code untilMs} (inclusive) and stops, leaving the state inspectable (tests). */
  public void runUntil(long untilMs) {
    start();
    Event e;
    while ((e = loop.next(untilMs)) != null) {
      e.dispatch();
    }
  }

  /** Serving churn, for tests that break it on purpose. */
  ServingChurn churn() {
    return churn;
  }

  /** The admission engine, for tests that inspect its state. */
  public AdmissionEngine engine() {
    return engine;
  }

  /** Opens every random stream in a fixed order: arrivals, timeline, failure models, churn, then the engine's. */
  private void start() {
    SplittableRandom root = new SplittableRandom(spec.seed());
    arrivals.open(root);
    nodes.start();
    timeline.start(spec.timeline(), root);
    nodes.startFailureModels(root);
    churn.start(root);
    engine.start(root);
    sampler.start();
  }

  private void arrive(WorkloadSpec s) {
    if (!engine.submit(s)) {
      rejected.add(s);
      recorder.unknownQueueArrival();
    }
  }

  private void check(Event e) {
    recent.addLast(e.toString());
    if (recent.size() > RECENT_EVENTS) {
      recent.removeFirst();
    }
    List<String> v = new ArrayList<>(engine.checkInvariants());
    v.addAll(churn.checkInvariants());
    v.addAll(cluster.checkInvariants());
    if (!v.isEmpty()) {
      throw new InvariantViolation(loop.now(), v, new ArrayList<>(recent));
    }
  }

  private RunResult result(long end) {
    AdmissionEngine.EngineReport r = engine.report(end);
    List<WorkloadRecord> records = new ArrayList<>(r.workloads().size() + rejected.size());
    records.addAll(r.workloads());
    for (WorkloadSpec s : rejected) {
      records.add(new WorkloadRecord(s.id(), s.workloadClass(), s.localQueue(), null, s.priority(), s.createdMs(),
          WorkloadRecord.NEVER, WorkloadRecord.NEVER, WorkloadRecord.NEVER, WorkloadRecord.NEVER,
          WorkloadRecord.NEVER, 0, 0, WorkloadRecord.REJECTED, "", engine.rejection(s.localQueue())));
    }
    List<QueueStats> qs = new ArrayList<>();
    List<PreemptionStats> ps = new ArrayList<>();
    long tp = 0;
    long tr = 0;
    long tu = 0;
    for (int q = 0; q < r.pending().length; q++) {
      qs.add(recorder.queueStats(q, r.pending()[q], r.reserved()[q], r.running()[q]));
      ps.add(recorder.preemptionStats(q));
      tp += r.pending()[q];
      tr += r.reserved()[q];
      tu += r.running()[q];
    }
    TimeSeries series = sampler.series();
    return new RunResult(spec.name(), spec.seed(), spec.horizonMs(), end, loop.processed(), spec.resources(),
        records, recorder.overallStats(tp, tr, tu), qs, capacity.utilization(end), r.queueUsage(),
        recorder.unknownQueueArrivals(), series, recorder.overallPreemptionStats(), ps, capacity.poolStats(end),
        churn.stats(), r.tas(), r.provisioning(), r.decisions());
  }
}
