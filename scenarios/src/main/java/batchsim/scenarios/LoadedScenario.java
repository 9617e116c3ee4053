package batchsim.scenarios;

import batchsim.core.model.SimulationSpec;
import batchsim.core.sim.EngineSource;
import batchsim.core.volcano.VolcanoSetup;
import batchsim.reports.Provenance;
import batchsim.reports.RunMetadata;
import batchsim.scenarios.expect.Expectations;
import java.util.List;

/**
 * A scenario file that loaded cleanly.
 *
 * @param file the file as the user named it (also the prefix of problem locations)
 * @param sha256 lowercase hex SHA-256 of the file's bytes, to tie results to their exact input (with includes,
 *     {@code --set} or a sweep cell: of all of those inputs)
 * @param spec the validated model both engines share (cluster, Kueue queues, workloads, timeline)
 * @param expectations the scenario's {@code expect:} and {@code baseline:} checks, evaluated after a run
 * @param volcano the Volcano configuration when the scenario selects {@code scheduler: volcano}; null runs it
 *     under Kueue. {@code batchsim.core.sim.Runs.run(spec, volcano, checked)} runs either.
 * @param snapshotTime the wall-clock time of t = 0 for a scenario imported from a live cluster
 *     ({@code snapshotTime:}), else null
 * @param overrides the {@code --set} arguments it was loaded with, in order
 * @param inputs every file read to build it, with its SHA-256 ({@link Provenance#inputs})
 * @param heapBytes the heap a run of it is estimated to need (its {@code --limits} budget: nodes, workloads and
 *     sample rows); 0 when not estimated (a scenario built in memory)
 */
public record LoadedScenario(String file, String sha256, SimulationSpec spec, Expectations expectations,
    VolcanoSetup volcano, java.time.Instant snapshotTime, List<String> overrides, List<Provenance.Input> inputs,
    long heapBytes) {
  public LoadedScenario {
    overrides = List.copyOf(overrides);
    inputs = List.copyOf(inputs);
  }

  public LoadedScenario(String file, String sha256, SimulationSpec spec, Expectations expectations,
      VolcanoSetup volcano, java.time.Instant snapshotTime) {
    this(file, sha256, spec, expectations, volcano, snapshotTime, List.of(), List.of(), 0);
  }

  public LoadedScenario(String file, String sha256, SimulationSpec spec, Expectations expectations,
      VolcanoSetup volcano) {
    this(file, sha256, spec, expectations, volcano, null);
  }

  /** A scenario run under Kueue. */
  public LoadedScenario(String file, String sha256, SimulationSpec spec, Expectations expectations) {
    this(file, sha256, spec, expectations, null);
  }

  /** A scenario without expectations, run under Kueue. */
  public LoadedScenario(String file, String sha256, SimulationSpec spec) {
    this(file, sha256, spec, Expectations.NONE, null);
  }

  /** The scheduler the scenario selects: {@code kueue} or {@code volcano}. */
  public String scheduler() {
    return volcano == null ? VolcanoBinder.KUEUE : VolcanoBinder.VOLCANO;
  }

  /** The same scenario with another root seed (the CLI's {@code --seed}, sweep replicas). */
  public LoadedScenario withSeed(long seed) {
    return new LoadedScenario(file, sha256, spec.withSeed(seed), expectations, volcano, snapshotTime, overrides,
        inputs, heapBytes);
  }

  /** What a result of this scenario records about where it came from; {@code cell} is null outside a sweep. */
  public RunMetadata metadata(Provenance.Cell cell, Provenance.Build build) {
    EngineSource engine = volcano == null ? EngineSource.KUEUE : EngineSource.VOLCANO;
    return new RunMetadata(file, sha256, build.version(), new Provenance(engine, overrides, cell, inputs, build));
  }
}
