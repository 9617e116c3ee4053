package batchsim.scenarios.cli;

import batchsim.reports.Provenance;
import batchsim.scenarios.RunLimits;
import batchsim.scenarios.kube.KubeNames;
import batchsim.scenarios.kube.PodFiles;
import batchsim.scenarios.kube.SweepManifests;
import batchsim.scenarios.sweep.Cell;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * {@code sweep SCENARIO --emit k8s DIR [--queue NS/NAME] [--parallel K] [--image IMAGE]}: writes the sweep as
 * Kubernetes manifests ({@link SweepManifests}) into DIR instead of running it, one file per step, numbered so that
 * {@code kubectl apply -f DIR} creates them in order: {@value #STORAGE}, {@value #FILES_POD}, {@value #JOB}.
 */
final class SweepClusterOptions {
  static final String STORAGE = "1-storage.yaml";
  static final String FILES_POD = "2-files-pod.yaml";
  static final String JOB = "3-job.yaml";
  /** The LocalQueue when --queue is not given. */
  static final String DEFAULT_QUEUE = "batchsim";
  /** A DNS-1123 label: a namespace, or a LocalQueue name that must also be a label value. */
  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  /**
   * An image reference as the container runtimes parse it: [registry host (with a '.' or a port, or localhost)/]
   * lowercase path components, [:tag], [@sha256:digest].
   */
  private static final Pattern IMAGE = Pattern.compile("(?:(?:[a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)+|localhost)"
      + "(?::[0-9]+)?/|[a-zA-Z0-9-]+:[0-9]+/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
      + "(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[0-9a-f]{64})?");
  private static final Pattern SIZE = Pattern.compile("([1-9][0-9]{0,5})(Mi|Gi|Ti)");

  @Option(names = "--emit", arity = "2", paramLabel = "k8s DIR", description = "Write the sweep as Kubernetes "
      + "manifests into DIR instead of running it: an Indexed Job of one pod per cell queued by Kueue, the "
      + "scenario's ConfigMap, claims for results and data, a Pod to copy files (see README, Sweeps on your cluster).")
  List<String> emit;

  @Option(names = "--queue", paramLabel = "[NS/]NAME", description = "With --emit: the Kueue LocalQueue (and "
      + "namespace) the Job is submitted to (default: " + DEFAULT_QUEUE + " in kubectl's current namespace).")
  String queue;

  @Option(names = "--image", paramLabel = "IMAGE", description = "With --emit: the batchsim image the pods run "
      + "(default: batchsim:<version>; see the Dockerfile).")
  String image;

  @Option(names = "--results-size", paramLabel = "SIZE", description = "With --emit: the results claim's size, e.g. "
      + "50Gi (default: " + SweepManifests.CELL_RESULTS_MIB + "Mi per cell, at least 1Gi).")
  String resultsSize;

  /** Refuses options that do not go together, before anything is read. */
  void checkCombination(Integer cell, Path junit, Path out) throws ScenarioCommand.UserError {
    if (emit == null) {
      if (queue != null || image != null || resultsSize != null) {
        throw new ScenarioCommand.UserError((queue != null ? "--queue" : image != null ? "--image" : "--results-size")
            + " goes with --emit k8s DIR");
      }
      if (cell != null && junit != null) {
        throw new ScenarioCommand.UserError("--junit goes with a whole sweep; give it to 'sweep merge'");
      }
      return;
    }
    if (!emit.get(0).equals("k8s")) {
      throw new ScenarioCommand.UserError("--emit " + emit.get(0) + ": unknown format (known: k8s)");
    }
    if (cell != null || junit != null || out != null) {
      throw new ScenarioCommand.UserError((cell != null ? "--cell" : junit != null ? "--junit" : "--out")
          + " does not go with --emit: the manifests go to --emit's DIR, and each pod runs its cell");
    }
  }

  int emit(SweepSettings settings, SweepSettings.Planned planned, Integer parallel, PrintWriter out, boolean quiet)
      throws ScenarioCommand.UserError {
    String namespace = null;
    String name = queue != null ? queue : DEFAULT_QUEUE;
    int slash = name.indexOf('/');
    if (slash >= 0) {
      namespace = name.substring(0, slash);
      name = name.substring(slash + 1);
    }
    if ((namespace != null && !LABEL.matcher(namespace).matches()) || !LABEL.matcher(name).matches()) {
      throw new ScenarioCommand.UserError("--queue " + queue + ": expected NAME or NAMESPACE/NAME, each lowercase "
          + "letters, digits and '-', starting and ending with a letter or digit, at most 63 characters");
    }
    String img = image != null ? image : "batchsim:" + Version.build().version();
    if (!IMAGE.matcher(img).matches()) {
      throw new ScenarioCommand.UserError("--image '" + img + "': expected an image reference such as "
          + "registry.example.com/batchsim:0.1.0 (the repository in lowercase)");
    }
    long results = SweepManifests.resultsBytes(planned.plan().cells().size());
    if (resultsSize != null) {
      var m = SIZE.matcher(resultsSize);
      if (!m.matches()) {
        throw new ScenarioCommand.UserError("--results-size " + resultsSize + ": expected a size such as 500Mi, "
            + "50Gi or 2Ti");
      }
      results = Long.parseLong(m.group(1)) << (m.group(2).equals("Mi") ? 20 : m.group(2).equals("Gi") ? 30 : 40);
    }
    List<Cell> cells = planned.plan().cells();
    Set<Provenance.Input> inputs = new LinkedHashSet<>();
    long heap = 0;
    for (Cell c : cells) {
      inputs.addAll(c.scenario().inputs());
      heap = Math.max(heap, c.scenario().heapBytes());
    }
    Path dir = Path.of(emit.get(1));
    OutputDirectory target = new OutputDirectory(dir);
    try {
      PodFiles files = PodFiles.of(Path.of(""), settings.file(), planned.composition().files(),
          new ArrayList<>(inputs));
      List<String> args = settings.args(files.scenario());
      KubeNames names = KubeNames.of(planned.name(), args);
      SweepManifests m = new SweepManifests(names, namespace, name, cells.size(),
          Math.min(parallel != null ? parallel : cells.size(), cells.size()), img, args,
          heap, RunLimits.parse(settings.limits()).memoryPercent(), files, results);
      String storage = m.storage();
      target.write(d -> {
        Files.writeString(d.resolve(STORAGE), storage, StandardCharsets.UTF_8);
        Files.writeString(d.resolve(FILES_POD), m.filesPod(), StandardCharsets.UTF_8);
        Files.writeString(d.resolve(JOB), m.job(), StandardCharsets.UTF_8);
      });
      if (!quiet) {
        nextSteps(out, m, target.path());
      }
    } catch (PodFiles.Refused e) {
      throw new ScenarioCommand.UserError("--emit k8s: " + e.getMessage());
    } catch (IOException e) {
      throw new ScenarioCommand.UserError("--emit k8s: cannot read " + e.getMessage());
    }
    return ScenarioCommand.OK;
  }

  private static void nextSteps(PrintWriter out, SweepManifests m, Path dir) {
    String ns = m.namespace() == null ? "" : " -n " + m.namespace();
    out.println("batchsim: " + m.cells() + " cells as Indexed Job " + m.names().job() + " (parallelism "
        + m.parallelism() + ", 1 CPU and " + (m.memoryBytes() >> 20) + "Mi per pod) for LocalQueue " + m.queue()
        + "; manifests in " + dir);
    // server-side: a client-side apply copies the whole ConfigMap into an annotation limited to 256 KiB
    out.println("  kubectl apply --server-side" + ns + " -f " + dir.resolve(STORAGE) + " -f " + dir.resolve(FILES_POD));
    Set<String> dataDirs = new LinkedHashSet<>();
    for (PodFiles.DataFile f : m.files().data()) {
      int cut = f.path().lastIndexOf('/');
      if (cut > 0) {
        dataDirs.add(SweepManifests.DATA + "/" + f.path().substring(0, cut));
      }
    }
    if (!m.files().data().isEmpty()) {
      out.println("  kubectl wait" + ns + " --for=condition=Ready pod/" + m.names().files());
    }
    if (!dataDirs.isEmpty()) { // kubectl cp does not create the target's directories
      out.println("  kubectl exec" + ns + " " + m.names().files() + " -- mkdir -p " + String.join(" ", dataDirs));
    }
    for (PodFiles.DataFile f : m.files().data()) {
      out.println("  kubectl cp" + ns + " " + m.files().localRoot().resolve(f.path()) + " " + m.names().files() + ":"
          + SweepManifests.DATA + "/" + f.path());
    }
    out.println("  kubectl apply --server-side" + ns + " -f " + dir.resolve(JOB));
    out.println("  kubectl wait" + ns + " --for=condition=Complete --timeout=-1s job/" + m.names().job());
    out.println("  kubectl cp" + ns + " " + m.names().files() + ":" + SweepManifests.RESULTS + "/" + m.names().job()
        + " results/" + m.names().job());
    out.println("  batchsim sweep merge results/" + m.names().job());
  }
}
