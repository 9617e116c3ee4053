package batchsim.core.sim;

import batchsim.core.metrics.RunResult;
import batchsim.core.model.SimulationSpec;
import batchsim.core.volcano.VolcanoSetup;
import batchsim.core.world.MetricsSink;
import batchsim.core.world.StatusSink;
import batchsim.core.world.WorkloadSink;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/** The one entry point that runs a scenario under the engine it selects (CLI, sweeps and tests call it). */
public final class Runs {
  private Runs() {}

  /**
   * Runs {@code spec} under Kueue, or under Volcano when {@code volcano} is given.
   *
   * @param checked check the engine's invariants as the run goes (slower); a violation throws
   *     {@link batchsim.core.world.InvariantViolation}
   */
  public static RunResult run(SimulationSpec spec, VolcanoSetup volcano, boolean checked) {
    return run(spec, volcano, checked, false);
  }

  /** As {@link #run(SimulationSpec, VolcanoSetup, boolean)}; {@code explain} keeps the decision log (Kueue). */
  public static RunResult run(SimulationSpec spec, VolcanoSetup volcano, boolean checked, boolean explain) {
    return run(spec, volcano, checked, explain, null);
  }

  /** As above; {@code progress} (may be null) hears the virtual time now and then. */
  public static RunResult run(SimulationSpec spec, VolcanoSetup volcano, boolean checked, boolean explain,
      LongConsumer progress) {
    return run(spec, volcano, checked, explain, progress, null);
  }

  /** As above; {@code status} (may be null) receives Kueue's status record as the run goes. */
  public static RunResult run(SimulationSpec spec, VolcanoSetup volcano, boolean checked, boolean explain,
      LongConsumer progress, StatusSink status) {
    return run(spec, volcano, checked, explain, progress, status, null);
  }

  /**
   * As above; {@code workloads} (may be null) receives every workload's record as the run goes, and the result
   * then lists none (null: the result keeps them all).
   */
  public static RunResult run(SimulationSpec spec, VolcanoSetup volcano, boolean checked, boolean explain,
      LongConsumer progress, StatusSink status, WorkloadSink workloads) {
    return run(spec, volcano, checked, explain, progress, status, workloads, null);
  }

  /** As above; {@code stalls} (may be null) hears once why the run stalled, if it does (see World#stalls). */
  public static RunResult run(SimulationSpec spec, VolcanoSetup volcano, boolean checked, boolean explain,
      LongConsumer progress, StatusSink status, WorkloadSink workloads, Consumer<String> stalls) {
    return run(spec, volcano, checked, explain, progress, status, workloads, stalls, null);
  }

  /** As above; {@code metrics} (may be null) hears the metric model at its scrape interval and at the end. */
  public static RunResult run(SimulationSpec spec, VolcanoSetup volcano, boolean checked, boolean explain,
      LongConsumer progress, StatusSink status, WorkloadSink workloads, Consumer<String> stalls,
      MetricScrapes metrics) {
    Simulation s = volcano == null ? new Simulation(spec) : new Simulation(spec, volcano);
    if (metrics != null) {
      s.scrapeMetrics(metrics.intervalMs(), metrics.sink());
    }
    return s.checked(checked).explain(explain).progress(progress).recordStatus(status).streamWorkloads(workloads)
        .stalls(stalls).run();
  }

  /** Where the metric model goes during a run, and how often. */
  public record MetricScrapes(long intervalMs, MetricsSink sink) {}
}
