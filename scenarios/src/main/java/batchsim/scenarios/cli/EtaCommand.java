package batchsim.scenarios.cli;

import batchsim.scenarios.eta.Eta;
import batchsim.scenarios.eta.EtaReport;
import batchsim.scenarios.eta.EtaSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim eta SNAPSHOT [JOB.yaml...] [--workload NS/NAME]...}: when would these jobs get quota, be
 * admitted and start, and why not sooner — the snapshot played forward R times, each stopped once they started.
 */
@Command(name = "eta", mixinStandardHelpOptions = true,
    header = "When would a job (or a pending Workload) get quota, be admitted and start, and why not sooner?",
    description = {"SNAPSHOT is a scenario (e.g. written by `batchsim import`), a directory of kubectl output or one "
        + "kubectl file (imported in memory as `batchsim import` would). The jobs (Job, JobSet, Pod group manifests) "
        + "are created at t = 0, in argument order; by default nothing else arrives after the snapshot.",
        "The answer: p10/p50/p90 over R replicas with different seeds (runtimes drawn per seed), as durations and "
            + "wall-clock times from the snapshot's time, with Kueue's pending reason, the finishes that let it in "
            + "and what it preempts."})
public final class EtaCommand extends ScenarioCommand {
  @Parameters(index = "0", paramLabel = "SNAPSHOT", description = "Scenario, kubectl output directory or file.")
  Path snapshot;

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "JOB", description = "Job manifests to ask about.")
  List<Path> jobs = new ArrayList<>();

  @Option(names = "--workload", paramLabel = "NS/NAME", description = "A pending Workload of the snapshot to ask "
      + "about (repeatable).")
  List<String> workloads = new ArrayList<>();

  @Option(names = {"-r", "--replicas"}, paramLabel = "R", defaultValue = "20",
      description = "Replicas, seeds SEED..SEED+R-1 (default: ${DEFAULT-VALUE}).")
  int replicas;

  @Option(names = "--seed", paramLabel = "SEED", description = "First seed (default: the scenario's).")
  Long seed;

  @Option(names = "--arrivals", paramLabel = "none|scenario", defaultValue = "none",
      description = "none: nothing arrives after the snapshot (default); scenario: keep a scenario's classes and traces.")
  String arrivals;

  @Option(names = "--runtime", paramLabel = "DIST", description = "Runtime of asked jobs without a "
      + "batchsim.io/runtime annotation: 45m | lognormal:MEDIAN:P99 | exponential:MEAN | uniform:MIN:MAX "
      + "(default: the import's placeholder lognormal:30m:4h).")
  String runtime;

  @Option(names = "--json", description = "Print the answer as JSON (schema in the README).")
  boolean json;

  @Override
  int execute() throws Exception {
    if (jobs.isEmpty() && workloads.isEmpty()) {
      throw new UserError("eta: name a job manifest or a pending Workload (--workload NS/NAME) to ask about");
    }
    if (replicas < 1) {
      throw new UserError("--replicas: expected at least 1, got " + replicas);
    }
    if (!arrivals.equals("none") && !arrivals.equals("scenario")) {
      throw new UserError("--arrivals: expected none or scenario, got '" + arrivals + "'");
    }
    EtaSnapshot.Loaded loaded;
    try {
      loaded = EtaSnapshot.load(snapshot, jobs, workloads, arrivals.equals("scenario"), runtime);
    } catch (IOException e) {
      throw new UserError("cannot read: " + e.getMessage());
    }
    Eta.Answer answer = Eta.ask(loaded, replicas, seed);
    out().print(json ? EtaReport.json(answer) : EtaReport.text(answer));
    return OK;
  }
}
