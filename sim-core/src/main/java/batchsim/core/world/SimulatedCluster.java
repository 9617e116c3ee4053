package batchsim.core.world;

import batchsim.core.cluster.ClusterState;
import batchsim.core.cluster.Node;
import batchsim.core.cluster.PodBinder;
import batchsim.core.engine.EventLoop;
import batchsim.core.metrics.Decision;
import batchsim.core.metrics.MetricSample;
import batchsim.core.metrics.MetricSamples;
import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.Recorder;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * One cluster of a {@link World}: its nodes and kube-scheduler emulation, its admission engine, its workload
 * sources, timeline, failures, serving churn, books and samples. Everything it schedules goes on the world's
 * loop with one of its parts as the target, so several clusters can share one loop (MultiKueue's manager and
 * workers); today a run has one.
 */
public final class SimulatedCluster {
  private final SimulationSpec spec;
  private final EventLoop loop;
  private final ClusterState cluster;
  private final AdmissionEngine engine;
  private final Recorder recorder;
  private final CapacityAccounting capacity;
  private final Arrivals arrivals;
  private final Nodes nodes;
  private final Timeline timeline;
  private final ServingChurn churn;
  private final Sampler sampler;
  private final List<MetricSample> metricSamples = new ArrayList<>();
  private StatusSink statusSink;
  private final WorldContext ctx;
  /** Keeps every record for the result, unless the records stream to a sink of the caller's. */
  private WorkloadCollector collector = new WorkloadCollector();
  private boolean explain;
  /** Rejected arrivals come after the engine's submissions in arrival order. */
  private long rejectedSeq = 1L << 62;

  /** Builds the cluster on {@code loop} and, with its context, the admission engine. */
  SimulatedCluster(SimulationSpec spec, EventLoop loop, Function<WorldContext, AdmissionEngine> engineFactory) {
    this.spec = spec;
    this.loop = loop;
    this.cluster = new ClusterState(spec.resources(), spec.nodePools(), spec.podScheduling().scoring());
    BinderListener listener = new BinderListener();
    PodBinder binder = new PodBinder(cluster, spec.flavors(), listener);
    WorldContext ctx = new WorldContext(spec, loop, cluster, binder);
    ctx.workloads = collector;
    this.ctx = ctx;
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
    listener.engine = engine;
    listener.capacity = capacity;
    this.sampler = new Sampler(loop, spec.sampleIntervalMs(),
        List.of(engine.queueSamples(), capacity, engine.topologySamples()), this::sampleMetrics);
  }

  /** The kube-scheduler's listener; made before the engine and the books it forwards to. */
  private final class BinderListener implements PodBinder.BindListener {
    AdmissionEngine engine;
    CapacityAccounting capacity;

    @Override
    public void podBound(Object owner, int pool, long[] request, int sign) {
      capacity.allocation(pool, request, sign, loop.now());
    }

    @Override
    public void nodeEmptied(Node n) {
      engine.nodeEmptied(n);
    }
  }

  /** The engine's metric model at a sample time; an unchanged snapshot shares the previous one's map. */
  private void sampleMetrics(long now) {
    SortedMap<String, Double> values = engine.metricSnapshot();
    if (!metricSamples.isEmpty() && metricSamples.get(metricSamples.size() - 1).values().equals(values)) {
      values = metricSamples.get(metricSamples.size() - 1).values();
    }
    metricSamples.add(new MetricSample(now, values));
    if (statusSink != null && !values.isEmpty()) {
      statusSink.accept(metricsRecord(now, values));
    }
  }

  /**
   * The metric model's values at a sample time as one status record ({@code kind: Metrics}): series name in
   * Prometheus's text form → value; what JSON cannot hold (+Inf, NaN) is written as Prometheus writes it.
   */
  private static StatusRecord metricsRecord(long now, SortedMap<String, Double> values) {
    Map<String, Object> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(k, Double.isFinite(v) ? (Object) v
        : Double.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf"));
    return new StatusRecord(now, "Metrics", null, "kueue", null, out);
  }

  /** Streams the engine's status record, and the metric samples, to {@code sink}; false without a record. */
  boolean recordStatus(StatusSink sink) {
    if (!engine.recordStatus(sink)) {
      return false;
    }
    this.statusSink = sink;
    return true;
  }

  /** Keeps the engine's decision log (in the result, unless the records stream). */
  void explain(boolean on) {
    explain = on;
    engine.explain(on);
  }

  /** Streams the workload records to {@code sink} instead of keeping them for the result. */
  void streamWorkloads(WorkloadSink sink) {
    collector = null;
    ctx.workloads = sink;
  }

  AdmissionEngine engine() {
    return engine;
  }

  ServingChurn churn() {
    return churn;
  }

  /** Opens every random stream in a fixed order: arrivals, timeline, failure models, churn, then the engine's. */
  void start(SplittableRandom root) {
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
      recorder.unknownQueueArrival();
      ctx.workloads.accept(rejectedSeq++, new WorkloadRecord(s.id(), s.workloadClass(), s.localQueue(), null,
          s.priority(), s.createdMs(), WorkloadRecord.NEVER, WorkloadRecord.NEVER, WorkloadRecord.NEVER,
          WorkloadRecord.NEVER, WorkloadRecord.NEVER, 0, 0, WorkloadRecord.REJECTED, "", engine.rejection(s)),
          null);
    }
  }

  List<String> checkInvariants() {
    List<String> v = new ArrayList<>(engine.checkInvariants());
    v.addAll(churn.checkInvariants());
    v.addAll(cluster.checkInvariants());
    v.addAll(recorder.livelocks()); // the livelock guard: evicted and readmitted over and over
    return v;
  }

  /**
   * The cluster's result at {@code end}; the workload sources are closed and the engine has sent the live
   * workloads' records. The result lists the workloads (and decisions) only when no sink of the caller's
   * took them.
   */
  RunResult result(long end, long events) {
    arrivals.close();
    AdmissionEngine.EngineReport r = engine.report(end);
    List<WorkloadRecord> records = collector == null ? List.of() : collector.records();
    Map<String, List<Decision>> decisions = collector != null && explain ? collector.decisions() : null;
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
    return new RunResult(spec.name(), spec.seed(), spec.horizonMs(), end, events, spec.resources(), records,
        recorder.overallStats(tp, tr, tu), qs, capacity.utilization(end), r.queueUsage(),
        recorder.unknownQueueArrivals(), sampler.series(), recorder.overallPreemptionStats(), ps,
        capacity.poolStats(end), churn.stats(), r.tas(), r.provisioning(), decisions,
        new MetricSamples(metricSamples, engine.metricSnapshot()), engine.engineName(), r.waiting());
  }
}
