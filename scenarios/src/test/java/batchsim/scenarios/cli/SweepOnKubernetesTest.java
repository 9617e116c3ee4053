package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.scenarios.RunLimits;
import batchsim.scenarios.ScenarioLoader;
import batchsim.scenarios.kube.PodFiles;
import batchsim.scenarios.sweep.Cell;
import batchsim.scenarios.sweep.SweepPlan;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep on Kubernetes: the manifests {@code sweep --emit k8s} writes are Kubernetes objects that say what the
 * issue asks, and running every cell from the Job's own arguments, then {@code sweep merge}, gives the bytes of a
 * local sweep of the same scenario — also after a cell was killed and run again.
 */
class SweepOnKubernetesTest {
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  @TempDir
  Path tmp;

  /** The objects of every manifest file in {@code dir}, read as fabric8's Kubernetes model classes. */
  private static List<HasMetadata> objects(Path dir) throws Exception {
    List<HasMetadata> out = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    assertEquals(List.of("1-storage.yaml", "2-files-pod.yaml", "3-job.yaml"),
        files.stream().map(p -> p.getFileName().toString()).toList());
    for (Path f : files) {
      try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(f.toFile())) {
        while (it.hasNext()) {
          JsonNode n = it.next();
          Class<? extends HasMetadata> type = switch (n.path("kind").asText()) {
            case "Job" -> Job.class;
            case "ConfigMap" -> ConfigMap.class;
            case "PersistentVolumeClaim" -> PersistentVolumeClaim.class;
            case "Pod" -> Pod.class;
            default -> throw new AssertionError("unexpected kind in " + f + ": " + n.path("kind"));
          };
          HasMetadata o = YAML.treeToValue(n, type);
          assertEquals(n.path("apiVersion").asText(), o.getApiVersion());
          out.add(o);
        }
      }
    }
    return out;
  }

  /** The Job's name: the scenario's name, a hash of the sweep's settings, "-sweep". */
  private static String jobName(List<HasMetadata> objects) {
    String name = of(objects, Job.class).get(0).getMetadata().getName();
    assertTrue(name.matches("small-[0-9a-f]{8}-sweep"), name);
    return name;
  }

  private static <T extends HasMetadata> List<T> of(List<HasMetadata> objects, Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  private Path emit(String... more) {
    Path dir = tmp.resolve("manifests");
    List<String> args = new ArrayList<>(List.of("sweep", SweepCommandTest.SMALL, "--emit", "k8s", dir.toString()));
    args.addAll(List.of(more));
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertEquals(0, r.exit(), r.err());
    return dir;
  }

  @Test
  void manifests_areKubernetesObjects_thatQueueAnIndexedJobInKueue() throws Exception {
    List<HasMetadata> objects = objects(emit("--queue", "team-a/sweeps", "--parallel", "4", "--image",
        "registry.example.com/batchsim:1"));
    Job job = of(objects, Job.class).get(0);
    JobSpec spec = job.getSpec();
    assertTrue(job.getAdditionalProperties().isEmpty() && spec.getAdditionalProperties().isEmpty(),
        "only fields Kubernetes knows: " + spec.getAdditionalProperties());
    assertEquals("Indexed", spec.getCompletionMode());
    assertEquals(6, spec.getCompletions(), "one completion per cell");
    assertEquals(4, spec.getParallelism());
    assertTrue(spec.getSuspend(), "created suspended: Kueue unsuspends it on admission");
    assertEquals(Map.of("kueue.x-k8s.io/queue-name", "sweeps"), job.getMetadata().getLabels());
    assertEquals(Map.of("kueue.x-k8s.io/job-min-parallelism", "1"), job.getMetadata().getAnnotations(),
        "Kueue may admit fewer pods when quota is short");
    for (HasMetadata o : objects) {
      assertEquals("team-a", o.getMetadata().getNamespace(), o.getKind());
      String name = o.getMetadata().getName();
      assertTrue(name.length() <= 63 && DNS_LABEL.matcher(name).matches(), name);
      assertTrue(name.startsWith(jobName(objects)), name);
    }
    assertEquals("Never", spec.getTemplate().getSpec().getRestartPolicy());
    Container c = spec.getTemplate().getSpec().getContainers().get(0);
    assertTrue(c.getAdditionalProperties().isEmpty(), c.getAdditionalProperties().toString());
    assertEquals("registry.example.com/batchsim:1", c.getImage());
    assertEquals(List.of("batchsim"), c.getCommand());
    assertEquals(List.of("sweep", SweepCommandTest.SMALL, "--cell", "$(JOB_COMPLETION_INDEX)", "--out",
        "/results/" + jobName(objects)), c.getArgs());
    assertEquals("FailIndex", spec.getPodFailurePolicy().getRules().get(0).getAction(),
        "bad input and broken invariants are not retried");
    var disruption = spec.getPodFailurePolicy().getRules().get(1);
    assertEquals("Ignore", disruption.getAction());
    assertEquals("DisruptionTarget", disruption.getOnPodConditions().get(0).getType());
    assertEquals("True", disruption.getOnPodConditions().get(0).getStatus(), "Kubernetes requires the status");

    ConfigMap cm = of(objects, ConfigMap.class).get(0);
    assertEquals(2, cm.getData().size(), "the scenario and its include");
    Volume scenario = spec.getTemplate().getSpec().getVolumes().stream().filter(v -> v.getConfigMap() != null)
        .findFirst().orElseThrow();
    assertEquals(cm.getMetadata().getName(), scenario.getConfigMap().getName());
    assertEquals(PodFiles.ROOT, c.getWorkingDir(), "the pod's working directory stands for this one");
    for (var item : scenario.getConfigMap().getItems()) {
      // each file is in the pod where it is here, relative to the working directory, with the same bytes
      assertEquals(Files.readString(Path.of(item.getPath())), cm.getData().get(item.getKey()), item.getPath());
      VolumeMount m = c.getVolumeMounts().stream().filter(v -> item.getPath().equals(v.getSubPath())).findFirst()
          .orElseThrow();
      assertEquals(PodFiles.ROOT + "/" + item.getPath(), m.getMountPath());
    }

    PersistentVolumeClaim results = of(objects, PersistentVolumeClaim.class).get(0);
    assertEquals(List.of("ReadWriteMany"), results.getSpec().getAccessModes());
    assertEquals("/results", c.getVolumeMounts().stream().filter(m -> m.getName().equals("results")).findFirst()
        .orElseThrow().getMountPath());
    assertEquals(results.getMetadata().getName(), spec.getTemplate().getSpec().getVolumes().stream()
        .filter(v -> v.getName().equals("results")).findFirst().orElseThrow().getPersistentVolumeClaim()
        .getClaimName());
    Pod files = of(objects, Pod.class).get(0);
    assertEquals(results.getMetadata().getName(), files.getSpec().getVolumes().get(0).getPersistentVolumeClaim()
        .getClaimName(), "a pod to copy the results out");
  }

  @Test
  void podResources_comeFromTheLargestCellsHeapEstimate() throws Exception {
    // 100,000 more CPU nodes: about 400 MB of heap by the --limits estimate, more than the 512 MiB floor allows
    String[] sets = {"--set", "nodePools.cpu.count=100000", "--limits", "memory=off"};
    List<HasMetadata> objects = objects(emit(sets));
    Container c = of(objects, Job.class).get(0).getSpec().getTemplate().getSpec().getContainers().get(0);
    SweepPlan plan = SweepPlan.of(ScenarioLoader.compose(Path.of(SweepCommandTest.SMALL),
        List.of("nodePools.cpu.count=100000")), null, RunLimits.parse(List.of("memory=off")));
    long heap = plan.cells().stream().mapToLong(cell -> cell.scenario().heapBytes()).max().orElseThrow();
    assertTrue(heap > 100_000L * 4096, "the estimate counts the nodes: " + heap);
    long step = 64L << 20;
    long expected = ((long) Math.ceil(heap / 0.75) + step - 1) / step * step; // the JVM's heap is 75% of the limit
    assertTrue(expected > 512L << 20);
    Quantity memory = c.getResources().getRequests().get("memory");
    assertEquals(expected, Quantity.getAmountInBytes(memory).longValueExact(), memory.toString());
    assertEquals(memory, c.getResources().getLimits().get("memory"));
    assertEquals(new Quantity("1"), c.getResources().getRequests().get("cpu"), "each run is single-threaded");
    assertEquals("-XX:+UseSerialGC -XX:MaxRAMPercentage=75 -Xss8m", c.getEnv().get(0).getValue(),
        "the engine recurses: the stack bin/batchsim gives it");
    assertEquals(List.of("sweep", SweepCommandTest.SMALL, "--set", "nodePools.cpu.count=100000", "--limits",
        "memory=off", "--cell", "$(JOB_COMPLETION_INDEX)", "--out", "/results/" + jobName(objects)), c.getArgs(),
        "the pods sweep with the same options");
  }

  @Test
  void emitting_estimatesTheHeap_butNeverChecksItAgainstThisJvm() throws Exception {
    // more nodes than this JVM's whole heap holds by the estimate (4 KiB each): a cell cannot run here
    long nodes = Runtime.getRuntime().maxMemory() / 4096 + 10_000;
    String[] opts = {"--set", "nodePools.cpu.count=" + nodes, "--limits", "nodes=off"};
    Cli.Result here = Cli.run(Stream.concat(Stream.of("sweep", SweepCommandTest.SMALL, "--cell", "0", "--out",
        tmp.resolve("c").toString()), Stream.of(opts)).toArray(String[]::new));
    assertEquals(2, here.exit(), "running a cell here checks this JVM's heap");
    assertTrue(here.err().contains("80%"), here.err());
    Container c = of(objects(emit(opts)), Job.class).get(0).getSpec().getTemplate().getSpec().getContainers().get(0);
    long memory = Quantity.getAmountInBytes(c.getResources().getLimits().get("memory")).longValueExact();
    assertTrue(memory * 0.75 * 0.8 >= nodes * 4096.0, "the pod is sized for it: " + memory);
  }

  @Test
  void resultsClaim_isSizedOnWhatCellsWrite_orOnResultsSize() throws Exception {
    Quantity six = of(objects(emit()), PersistentVolumeClaim.class).get(0).getSpec().getResources().getRequests()
        .get("storage");
    assertEquals(new Quantity("1Gi"), six, "6 cells × 16Mi, at least 1Gi");
    List<HasMetadata> objects = objects(emit("--replicas", "200"));
    int cells = of(objects, Job.class).get(0).getSpec().getCompletions();
    assertTrue(cells >= 600, "cells: " + cells);
    Quantity many = of(objects, PersistentVolumeClaim.class).get(0).getSpec().getResources().getRequests()
        .get("storage");
    assertEquals(new Quantity(((cells * 16L + 1023) / 1024) + "Gi"), many, "16Mi per cell, not a cell's heap");
    Quantity given = of(objects(emit("--results-size", "500Gi")), PersistentVolumeClaim.class).get(0).getSpec()
        .getResources().getRequests().get("storage");
    assertEquals(new Quantity("500Gi"), given);
  }

  @Test
  void names_areDnsLabels_ofAtMost63Characters_evenForLongOrOddScenarioNames() throws Exception {
    String longName = "Capacity Planning: the 2027 GPU fleet, every quota × every node count × fair sharing";
    Job a = of(objects(emit("--set", "name='" + longName + "'")), Job.class).get(0);
    // emitted again into the same DIR: batchsim's own output is replaced
    Job b = of(objects(emit("--set", "name='" + longName + " (v2)'")), Job.class).get(0);
    for (Job j : List.of(a, b)) {
      String name = j.getMetadata().getName();
      assertTrue(DNS_LABEL.matcher(name).matches() && name.length() + "-scenario".length() <= 63, name);
      assertTrue(name.startsWith("capacity-planning-the-2027-gpu"), name);
    }
    assertNotEquals(a.getMetadata().getName(), b.getMetadata().getName(), "cut names stay apart");
  }

  @Test
  void variantsOfOneScenario_getNamesOfTheirOwn_andTheSameSweepTheSameNames() throws Exception {
    String plain = jobName(objects(emit()));
    assertEquals(plain, jobName(objects(emit())), "emitted again: the same objects, applied again");
    String replicas = jobName(objects(emit("--replicas", "2")));
    String set = jobName(objects(emit("--set", "nodePools.cpu.count=3")));
    assertEquals(3, java.util.Set.of(plain, replicas, set).size(), plain + " " + replicas + " " + set);
  }

  @Test
  void filesTheScenarioReads_areMountedFromTheDataClaim_whereTheyAreHere() throws Exception {
    Path dir = tmp.resolve("scn");
    Files.createDirectories(dir.resolve("traces"));
    Files.copy(Path.of("src/test/resources/traces/small.swf"), dir.resolve("traces/small.swf"));
    Files.writeString(dir.resolve("main.yaml"), Files.readString(Path.of(SweepCommandTest.SMALL))
        .replace("include: ../include/base.yaml", "include: base.yaml") + """
        workloads:
          traces:
            - {format: swf, path: traces/small.swf, queue: b/main}
        """);
    Files.copy(Path.of("src/test/resources/include/base.yaml"), dir.resolve("base.yaml"));
    Path out = tmp.resolve("m");
    Cli.Result r = Cli.run("sweep", dir.resolve("main.yaml").toString(), "--emit", "k8s", out.toString(),
        "--parallel", "1");
    assertEquals(0, r.exit(), r.err());
    List<HasMetadata> objects = objects(out);
    Container c = of(objects, Job.class).get(0).getSpec().getTemplate().getSpec().getContainers().get(0);
    VolumeMount trace = c.getVolumeMounts().stream().filter(m -> m.getName().equals("data")).findFirst().orElseThrow();
    assertTrue(trace.getMountPath().endsWith("/scn/traces/small.swf") && trace.getReadOnly(), trace.toString());
    assertEquals(PodFiles.ROOT + "/" + trace.getSubPath(), trace.getMountPath(), "the claim holds it at the same path");
    String filesPod = jobName(objects) + "-files";
    String traceDir = trace.getSubPath().substring(0, trace.getSubPath().lastIndexOf('/'));
    List<String> steps = r.out().lines().map(String::strip).toList();
    int mkdir = steps.indexOf("kubectl exec " + filesPod + " -- mkdir -p /data/" + traceDir);
    int cp = steps.indexOf("kubectl cp " + dir.resolve("traces/small.swf") + " " + filesPod + ":/data/"
        + trace.getSubPath());
    assertTrue(mkdir > 0 && cp > mkdir, "makes the trace's directory on the claim, then copies it in: " + r.out());
    assertTrue(steps.get(1).startsWith("kubectl apply --server-side -f "), "no last-applied annotation (256 KiB "
        + "at most) for a ConfigMap of up to 1 MiB: " + steps.get(1));
    assertEquals(2, of(objects, PersistentVolumeClaim.class).size(), "results and data");
    assertFalse(of(objects, Job.class).get(0).getMetadata().getAnnotations().containsKey(
        "kueue.x-k8s.io/job-min-parallelism"), "no partial admission for one pod at a time (Kueue wants the minimum "
        + "below the parallelism)");
  }

  @Test
  void aScenarioOverAConfigMapsLimit_isRefused_pointingToTheDataClaim() throws Exception {
    Path big = tmp.resolve("big.yaml");
    Files.writeString(big, Files.readString(Path.of(SweepCommandTest.SMALL)).replace("../include/base.yaml",
        Path.of("src/test/resources/include/base.yaml").toAbsolutePath().toString()) + ("# padding\n").repeat(120_000));
    Path out = tmp.resolve("m");
    Cli.Result r = Cli.run("sweep", big.toString(), "--emit", "k8s", out.toString());
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().startsWith("batchsim: --emit k8s: the scenario and its includes take 1.15 MiB, more than the "
        + "1 MiB a ConfigMap holds;") && r.err().matches("(?s).*data claim \\(small-[0-9a-f]{8}-sweep-data\\).*"), r.err());
    assertFalse(Files.exists(out));
  }

  @Test
  void badEmitOptions_exit2() {
    assertEquals(List.of("batchsim: --emit helm: unknown format (known: k8s)"),
        Cli.run("sweep", SweepCommandTest.SMALL, "--emit", "helm", tmp.toString()).errLines());
    assertEquals(List.of("batchsim: --queue Team_A/q: expected NAME or NAMESPACE/NAME, each lowercase letters, digits "
        + "and '-', starting and ending with a letter or digit, at most 63 characters"),
        Cli.run("sweep", SweepCommandTest.SMALL, "--emit", "k8s", tmp.resolve("m").toString(), "--queue", "Team_A/q")
            .errLines());
    assertEquals(List.of("batchsim: --queue goes with --emit k8s DIR"),
        Cli.run("sweep", SweepCommandTest.SMALL, "--queue", "q").errLines());
    assertEquals(List.of("batchsim: --image 'Registry.example.com/BatchSim:1': expected an image reference such as "
        + "registry.example.com/batchsim:0.1.0 (the repository in lowercase)"),
        Cli.run("sweep", SweepCommandTest.SMALL, "--emit", "k8s", tmp.resolve("m").toString(), "--image",
            "Registry.example.com/BatchSim:1").errLines());
    assertEquals(List.of("batchsim: --results-size 50GB: expected a size such as 500Mi, 50Gi or 2Ti"),
        Cli.run("sweep", SweepCommandTest.SMALL, "--emit", "k8s", tmp.resolve("m").toString(), "--results-size",
            "50GB").errLines());
    Cli.Result par = Cli.run("sweep", SweepCommandTest.SMALL, "--cell", "0", "--parallel", "2", "--out",
        tmp.resolve("c").toString());
    assertEquals(2, par.exit());
    assertTrue(par.err().startsWith("batchsim: --parallel does not go with --cell"), par.err());
    assertFalse(Files.exists(tmp.resolve("m")) || Files.exists(tmp.resolve("c")), "nothing written");
    Cli.Result r = Cli.run("sweep", SweepCommandTest.SMALL, "--cell", "6", "--out", tmp.resolve("c").toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: --cell 6: the sweep of " + SweepCommandTest.SMALL
        + " has 6 cells, numbered 0 to 5"),
        r.errLines());
  }

  /** Runs cell {@code index} with the Job's arguments, the results claim being {@code claim}. */
  private static Cli.Result runCell(Container c, int index, Path claim) {
    List<String> args = c.getArgs().stream().map(a -> a.equals("$(JOB_COMPLETION_INDEX)") ? Integer.toString(index)
        : a.startsWith("/results/") ? claim.resolve(a.substring("/results/".length())).toString() : a).toList();
    List<String> all = new ArrayList<>(args);
    all.add("-q");
    return Cli.run(all.toArray(String[]::new));
  }

  @Test
  void everyCellFromTheJobsArguments_thenMerge_givesTheBytesOfALocalSweep_evenAfterAKilledCell() throws Exception {
    List<HasMetadata> objects = objects(emit("--parallel", "2"));
    Job job = of(objects, Job.class).get(0);
    Container c = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals("batchsim", c.getCommand().get(0), "the image's entrypoint (docker/batchsim) runs the CLI");
    Path claim = tmp.resolve("claim");
    for (int i = 0; i < job.getSpec().getCompletions(); i++) {
      Cli.Result r = runCell(c, i, claim);
      assertEquals(0, r.exit(), r.err());
    }
    Path results = claim.resolve(jobName(objects));
    Path cell = results.resolve("cells").resolve(SweepResumeTest.CELL);
    Map<Path, byte[]> before = tree(cell);

    // killed half-way through writing its reports: no marker, a truncated file; its pod runs again
    Files.delete(cell.resolve("done.json"));
    Files.writeString(cell.resolve("workloads.csv"), "name,");
    Path rows = results.resolve("cells").resolve("." + SweepResumeTest.CELL + ".workloads-123.csv");
    Files.writeString(rows, "half-streamed rows");
    assertTrue(Files.isRegularFile(results.resolve("sweep.json")), "the sweep's settings, for merge");
    int index = cellIndex(SweepResumeTest.CELL);
    assertEquals(0, runCell(c, index, claim).exit());
    assertTreeEquals(before, tree(cell));
    assertFalse(Files.exists(rows), "the killed run's streamed rows are removed");
    // and an intact cell run again is kept as it is
    Cli.Result again = Cli.run("sweep", SweepCommandTest.SMALL, "--cell", Integer.toString(index), "--out",
        results.toString());
    assertTrue(again.err().contains("done before; kept"), again.err());
    assertTreeEquals(before, tree(cell));

    Path merged = tmp.resolve("merged");
    Cli.Result m = Cli.run("sweep", "merge", results.toString(), "--out", merged.toString());
    assertEquals(0, m.exit(), m.err());
    Path local = tmp.resolve("local");
    Cli.Result l = Cli.run("sweep", SweepCommandTest.SMALL, "--out", local.toString());
    assertEquals(0, l.exit(), l.err());
    assertTreeEquals(tree(local), tree(merged));
    assertEquals(l.out(), m.out(), "the same summary table");
  }

  @Test
  void merge_listsMissingCells_exits4_andFinishesOnceTheyAreRun() throws Exception {
    Path results = tmp.resolve("claim/small-sweep");
    for (int i : new int[] {0, 1, 3, 4, 5}) {
      assertEquals(0, Cli.run("sweep", SweepCommandTest.SMALL, "--cell", Integer.toString(i), "--out",
          results.toString(), "-q").exit());
    }
    Path other = tmp.resolve("elsewhere/small-sweep");
    Path merged = tmp.resolve("merged");
    Cli.Result r = Cli.run("sweep", "merge", results.toString(), "--out", merged.toString());
    assertEquals(SweepMergeCommand.INCOMPLETE, r.exit(), r.err());
    assertEquals(List.of("batchsim: cell 2 (nodePools.gpu.count=2,quota=low,seed=7): no result (not run yet, still "
        + "running, or its pod was lost before writing)", "batchsim: 1 of 6 cells missing; run them again (batchsim "
        + "sweep " + SweepCommandTest.SMALL + " --cell N --out DIR) and merge again"), r.errLines());
    assertFalse(Files.exists(merged));
    // the missing cell, run into another directory (another claim), completes the merge
    assertEquals(0, Cli.run("sweep", SweepCommandTest.SMALL, "--cell", "2", "--out", other.toString(), "-q").exit());
    Cli.Result done = Cli.run("sweep", "merge", results.toString(), other.toString(), "--out", merged.toString(), "-q");
    assertEquals(0, done.exit(), done.err());
    Path local = tmp.resolve("local");
    assertEquals(0, Cli.run("sweep", SweepCommandTest.SMALL, "-q", "--out", local.toString()).exit());
    assertTreeEquals(tree(local), tree(merged));
  }

  @Test
  void merge_saysWhatIsKnownOfACellWithoutAResult() throws Exception {
    Path results = tmp.resolve("claim/small-sweep");
    for (int i = 0; i < 6; i++) {
      assertEquals(0, Cli.run("sweep", SweepCommandTest.SMALL, "--cell", Integer.toString(i), "--out",
          results.toString(), "-q").exit());
    }
    Path cells = results.resolve("cells");
    // cell 0: truncated (killed while writing); cell 1: of another build; cell 2: of another scenario;
    // cell 3: its pod failed for good (what --cell records for a broken invariant or an internal error)
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      names.add(Cli.run("sweep", SweepCommandTest.SMALL, "--cell", Integer.toString(i), "--out", results.toString())
          .err().replaceAll("(?s).*, ([^,:]*=[^:]*): done before.*", "$1").strip());
    }
    Files.delete(cells.resolve(names.get(0)).resolve("done.json"));
    Path marker1 = cells.resolve(names.get(1)).resolve("done.json");
    Files.writeString(marker1, Files.readString(marker1).replaceFirst("\"version\" : \"[^\"]*\"",
        "\"version\" : \"0.0.9 (commit abc)\""));
    Path marker2 = cells.resolve(names.get(2)).resolve("done.json");
    Files.writeString(marker2, Files.readString(marker2).replaceFirst("\"scenario\" : \"[^\"]*\"",
        "\"scenario\" : \"0000\""));
    batchsim.scenarios.RegularFiles.deleteRecursively(cells.resolve(names.get(3)));
    Files.createDirectories(results.resolve("failed"));
    Files.writeString(results.resolve("failed").resolve(names.get(3)), "exit 3 (a broken invariant): x\n");
    Cli.Result r = Cli.run("sweep", "merge", results.toString(), "--out", tmp.resolve("merged").toString());
    assertEquals(SweepMergeCommand.INCOMPLETE, r.exit(), r.err());
    List<String> lines = r.errLines();
    assertTrue(lines.get(0).endsWith("): incomplete result (no done-marker: its run was killed while writing); run "
        + "the index again"), lines.get(0));
    assertTrue(lines.get(1).matches(".*\\): result of batchsim 0\\.0\\.9 \\(commit abc\\), not of this build \\(.+\\); "
        + "run the index again"), lines.get(1));
    assertTrue(lines.get(2).endsWith("): result of a different scenario (the scenario, its --set or the files it "
        + "reads changed since); run the index again"), lines.get(2));
    assertTrue(lines.get(3).endsWith("): failed, exit 3 (a broken invariant): x; fix it and run the index again"),
        lines.get(3));
    assertEquals(5, lines.size(), r.err());
  }

  @Test
  void merge_quotesTheScenarioPathInItsHint_whenTheShellNeedsIt() {
    assertEquals("sweep/small.yaml", SweepMergeCommand.shellWord("sweep/small.yaml"));
    assertEquals("'my sweeps/it'\\''s.yaml'", SweepMergeCommand.shellWord("my sweeps/it's.yaml"));
  }

  @Test
  void merge_refusesDirectoriesWithoutASweepRecord_andCellsOfAnotherSweep() throws Exception {
    Cli.Result none = Cli.run("sweep", "merge", tmp.toString());
    assertEquals(2, none.exit());
    assertTrue(none.err().startsWith("batchsim: no sweep.json in [" + tmp + "]"), none.err());
    Path results = tmp.resolve("r");
    assertEquals(0, Cli.run("sweep", SweepCommandTest.SMALL, "--cell", "0", "--out", results.toString(), "-q").exit());
    Cli.Result other = Cli.run("sweep", SweepCommandTest.SMALL, "--replicas", "1", "--cell", "0", "--out",
        results.toString());
    assertEquals(2, other.exit());
    assertEquals(List.of("batchsim: --out " + results + " holds the cells of another sweep (" + SweepCommandTest.SMALL
        + "); choose another --out"), other.errLines());
  }

  @Test
  void completion_coversTheMergeSubcommand() {
    String script = Cli.run("completion").out();
    assertTrue(script.contains("function _picocli_batchsim_sweep_merge()"), "a function for sweep merge");
    assertTrue(Pattern.compile("function _picocli_batchsim_sweep\\(\\) \\{\\n(.*\\n)*?  local commands=\"merge\"")
        .matcher(script).find(), "sweep completes its subcommand merge");
    assertTrue(script.contains("--emit") && script.contains("--cell") && script.contains("--queue"));
  }

  private static int cellIndex(String name) throws Exception {
    SweepPlan plan = SweepPlan.of(ScenarioLoader.compose(Path.of(SweepCommandTest.SMALL), List.of()), null);
    return plan.cells().stream().filter(c -> c.name().equals(name)).mapToInt(Cell::index).findFirst().orElseThrow();
  }

  private static Map<Path, byte[]> tree(Path dir) throws Exception {
    Map<Path, byte[]> out = new java.util.TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        out.put(dir.relativize(p), Files.readAllBytes(p));
      }
    }
    return out;
  }

  private static void assertTreeEquals(Map<Path, byte[]> expected, Map<Path, byte[]> actual) {
    assertEquals(expected.keySet(), actual.keySet());
    expected.forEach((p, bytes) -> assertEquals(new String(bytes, StandardCharsets.UTF_8),
        new String(actual.get(p), StandardCharsets.UTF_8), p.toString()));
  }
}
