package batchsim.scenarios.imports;

import batchsim.scenarios.Problem;
import batchsim.scenarios.ScenarioException;
import batchsim.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim import INPUT... [-o FILE]}: writes a scenario from a cluster's Kueue manifests and
 * nodes, job manifests, Kueue generator files and public traces. Warnings (what could not be carried
 * over) and a check of the written scenario go to standard error; exit 2 when an input could not be read.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
    header = "Write a scenario from Kueue manifests, node lists, job manifests and traces.",
    description = {"Inputs are told apart by content: Kubernetes YAML/JSON (Kueue objects, PriorityClasses, `kubectl get "
        + "nodes -o yaml`, Jobs, JobSets, Pods; multi-document or kind: List), Kueue performance-test generator files, "
        + "SWF (.swf), and the Philly, Philly VC-size, Alibaba pod and Alibaba node CSV files.",
        "Traces and Alibaba node lists are referenced by path (relative to the output file), not copied."})
public final class ImportCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "INPUT", description = "Files to import.")
  List<Path> inputs;

  @Option(names = {"-o", "--out"}, paramLabel = "FILE", description = "Scenario file to write (default: standard output).")
  Path out;

  @Option(names = "--force", description = "Overwrite an existing output file.")
  boolean force;

  @Option(names = "--name", paramLabel = "NAME", description = "Scenario name (default: the first input's file name).")
  String name;

  @Option(names = "--queue-from", paramLabel = "COLUMN",
      description = "Trace column that picks a job's queue: swf user|group|queue|partition|executable, philly vc, "
          + "alibaba qos|phase|gpuSpec (default: vc for Philly, qos for Alibaba, one queue for SWF).")
  String queueFrom;

  @Option(names = "--units-per-pod", paramLabel = "N",
      description = "Processors (SWF) or GPUs (Philly) per pod (default: 1; Philly: --gpus-per-node).")
  Integer unitsPerPod;

  @Option(names = "--gpus-per-node", paramLabel = "N", defaultValue = "8",
      description = "GPUs per node for Philly VC sizes and placeholder nodes (default: ${DEFAULT-VALUE}).")
  int gpusPerNode;

  @Option(names = "--max-queues", paramLabel = "N", defaultValue = "50",
      description = "At most this many queues per trace; rarer values share one 'other' queue (default: ${DEFAULT-VALUE}).")
  int maxQueues;

  @Option(names = "--snapshot-time", paramLabel = "TIME",
      description = "The time that becomes t = 0 for Kueue Workload objects, RFC 3339 (e.g. 2026-11-26T09:30:00Z; "
          + "default: the latest time the Workloads record).")
  String snapshotTime;

  @Option(names = "--runtime", paramLabel = "DIST",
      description = "Runtime of imported jobs nothing else estimates: 45m | lognormal:MEDIAN:P99 | exponential:MEAN | "
          + "uniform:MIN:MAX (default: the placeholder " + RuntimeEstimates.PLACEHOLDER + ").")
  String runtime;

  @Option(names = "--queue-runtime", paramLabel = "NS/LOCALQUEUE=DIST",
      description = "Runtime of the jobs of one LocalQueue (repeatable); a job's " + RuntimeEstimates.ANNOTATION
          + " annotation comes first.")
  List<String> queueRuntimes = new ArrayList<>();

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    try {
      if (out != null && Files.exists(out) && !force) {
        err.println("batchsim: " + out + " exists; pass --force to overwrite it");
        return CommandLine.ExitCode.USAGE;
      }
      for (Path p : inputs) {
        if (!Files.isRegularFile(p)) {
          err.println("batchsim: " + p + ": no such file");
          return CommandLine.ExitCode.USAGE;
        }
      }
      java.time.Instant snapshot = null;
      if (snapshotTime != null) {
        try {
          snapshot = java.time.Instant.parse(snapshotTime);
        } catch (java.time.format.DateTimeParseException e) {
          err.println("batchsim: --snapshot-time: expected an RFC 3339 time such as 2026-11-26T09:30:00Z, got '"
              + snapshotTime + "'");
          return CommandLine.ExitCode.USAGE;
        }
      }
      try {
        new RuntimeEstimates(runtime, queueRuntimes, (at, path, m) -> { });
      } catch (IllegalArgumentException e) {
        err.println("batchsim: " + e.getMessage());
        return CommandLine.ExitCode.USAGE;
      }
      ScenarioImport.Result r = ScenarioImport.run(inputs, out, new ScenarioImport.Options(name, queueFrom,
          unitsPerPod, gpusPerNode, Math.max(1, maxQueues), runtime, List.copyOf(queueRuntimes), snapshot));
      r.warnings().forEach(w -> err.println("warning: " + w));
      r.notes().forEach(n -> err.println("batchsim: " + n));
      r.errors().forEach(e -> err.println("error: " + e));
      if (!r.errors().isEmpty()) {
        err.println("batchsim: nothing written: an input could not be read");
        return CommandLine.ExitCode.USAGE;
      }
      if (out == null) {
        stdout.print(r.yaml());
      } else {
        Path dir = out.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Files.writeString(out, r.yaml(), StandardCharsets.UTF_8);
        err.println("batchsim: wrote " + out);
      }
      check(r.yaml(), err);
      return CommandLine.ExitCode.OK;
    } catch (IOException e) {
      err.println("batchsim: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    } finally {
      stdout.flush();
      err.flush();
    }
  }

  /** Loads the written scenario as {@code batchsim validate} would and says what still needs editing. */
  private void check(String yaml, PrintWriter err) {
    String fileName = out != null ? out.toString() : Path.of("imported.yaml").toString();
    try {
      ScenarioLoader.parse(fileName, yaml);
      err.println("batchsim: the scenario loads cleanly");
    } catch (ScenarioException e) {
      err.println("batchsim: the scenario needs editing before it runs:");
      for (Problem p : e.problems()) {
        err.println("  " + p);
      }
    }
  }
}
