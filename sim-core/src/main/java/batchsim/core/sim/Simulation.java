package batchsim.core.sim;

import batchsim.core.metrics.RunResult;
import batchsim.core.model.SimulationSpec;
import batchsim.core.volcano.VolcanoSetup;
import batchsim.core.world.World;
import batchsim.core.world.kueue.KueueAdmission;
import batchsim.core.world.kueue.MultiKueueWorld;
import batchsim.core.world.volcano.VolcanoAdmission;
import java.util.function.LongConsumer;

/**
 * One run of a scenario: the {@link World} with the admission engine the scenario selects — Kueue, or
 * Volcano when a {@link VolcanoSetup} is given.
 */
public final class Simulation {
  private final World world;

  /** A run under Kueue; a MultiKueue manager's run has its worker clusters in the same world. */
  public Simulation(SimulationSpec spec) {
    this.world = new World(spec, KueueAdmission::new);
    if (spec.multiKueue() != null) {
      MultiKueueWorld.connect(world, (KueueAdmission) world.engine(), spec.multiKueue());
    }
  }

  /**
   * A run under Volcano.
   *
   * @throws IllegalArgumentException when the scenario uses something Volcano runs do not support
   */
  public Simulation(SimulationSpec spec, VolcanoSetup volcano) {
    if (spec.multiKueue() != null) {
      throw new IllegalArgumentException("MultiKueue is Kueue's: this scenario runs under Volcano");
    }
    this.world = new World(spec, ctx -> new VolcanoAdmission(ctx, volcano));
  }

  /** Checks every invariant after every event (slower; a violation throws {@link batchsim.core.world.InvariantViolation}). */
  public Simulation checked(boolean on) {
    world.checked(on);
    return this;
  }

  /** Keeps a decision log: every condition change of every workload, for {@code batchsim explain} (Kueue). */
  public Simulation explain(boolean on) {
    world.explain(on);
    return this;
  }

  /** Streams Kueue's status record (Workloads, ClusterQueues, LocalQueues, Cohorts at every change) to {@code sink}. */
  public Simulation recordStatus(batchsim.core.world.StatusSink sink) {
    if (sink != null) {
      world.recordStatus(sink);
    }
    return this;
  }

  /**
   * Streams each workload's record to {@code sink} (null: the result keeps them all) as workloads end, and the
   * live ones' at the end; see {@link batchsim.core.world.WorkloadSink}.
   */
  public Simulation streamWorkloads(batchsim.core.world.WorkloadSink sink) {
    if (sink != null) {
      world.streamWorkloads(sink);
    }
    return this;
  }

  /** Hands the metric model to {@code sink} every {@code intervalMs} and at the end (see World#scrapeMetrics). */
  public Simulation scrapeMetrics(long intervalMs, batchsim.core.world.MetricsSink sink) {
    world.scrapeMetrics(intervalMs, sink);
    return this;
  }

  /** Called with the virtual time every 1,024 events (the CLI shows progress; it reads the wall clock then). */
  public Simulation progress(LongConsumer listener) {
    world.progress(listener);
    return this;
  }

  /** Hears, once, that the run stalled: workloads wait and nothing left can change that (see World). */
  public Simulation stalls(java.util.function.Consumer<String> listener) {
    if (listener != null) {
      world.stalls(listener);
    }
    return this;
  }

  /** Stops the run with an exception after this many events (a guard for tests and debugging). */
  public Simulation maxEvents(long max) {
    world.maxEvents(max);
    return this;
  }

  /** Runs to the horizon or until no events remain; single-threaded and deterministic. */
  public RunResult run() {
    return world.run();
  }

  /** The world, for tests that inspect state during or after a run. */
  public World world() {
    return world;
  }
}
