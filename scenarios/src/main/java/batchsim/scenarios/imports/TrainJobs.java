package batchsim.scenarios.imports;

import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubeflow Trainer's TrainJob (trainer.kubeflow.org/v1alpha1). Kueue (trainjob.PodSets) builds the child
 * JobSet the trainer would build from the referenced TrainingRuntime or ClusterTrainingRuntime (which must
 * be among the inputs) and takes its pod sets as for a JobSet: one per replicated job, named by it
 * lower-cased, of replicas × pods. As the trainer builds it: initializer and trainer jobs
 * ({@code trainer.kubeflow.org/trainjob-ancestor-step}) have 1 replica; a job has parallelism (default 1)
 * pods, the trainer job mlPolicy.numNodes (default 1), overridden by the TrainJob's trainer.numNodes (for
 * an MPI policy on the {@code node} job, one fewer with runLauncherAsNode, at least 1); the TrainJob's
 * trainer.resourcesPerNode replaces the requests and limits it names in the trainer job's {@code node}
 * container.
 */
final class TrainJobs {
  static final String GROUP = "trainer.kubeflow.org";
  private static final String ANCESTOR = "trainer.kubeflow.org/trainjob-ancestor-step";
  private static final Set<String> ONE_REPLICA = Set.of("dataset-initializer", "model-initializer", "trainer");

  private final PodTemplates p;
  private final BatchJobs jobSets;
  private final List<KubeObject> runtimes;

  TrainJobs(PodTemplates p, BatchJobs jobSets, List<KubeObject> runtimes) {
    this.p = p;
    this.jobSets = jobSets;
    this.runtimes = runtimes;
  }

  static boolean isRuntime(KubeObject o) {
    return o.group().equals(GROUP) && (o.kind().equals("TrainingRuntime") || o.kind().equals("ClusterTrainingRuntime"));
  }

  JobTemplate read(KubeObject o) {
    Node ref = Tree.get(o.node(), "spec", "runtimeRef");
    String name = Tree.text(ref, "name");
    String kind = Tree.text(ref, "kind") == null ? "ClusterTrainingRuntime" : Tree.text(ref, "kind");
    if (name == null) {
      return p.cannot(o, Tree.get(o.node(), "spec"), "TrainJob " + o.name() + " has no spec.runtimeRef.name");
    }
    KubeObject runtime = runtimes.stream().filter(r -> r.kind().equals(kind) && r.name().equals(name)
        && (kind.equals("ClusterTrainingRuntime") || PodTemplates.namespace(r).equals(PodTemplates.namespace(o))))
        .findFirst().orElse(null);
    if (runtime == null) {
      return p.cannot(o, ref, "its runtime " + kind + " " + (kind.equals("TrainingRuntime") ? PodTemplates.namespace(o)
          + "/" : "") + name + " is not among the inputs; add it (kubectl get " + kind.toLowerCase(java.util.Locale.ROOT)
          + "s -o yaml): Kueue derives the TrainJob's pod sets from it");
    }
    Node rtSpec = Tree.get(runtime.node(), "spec");
    List<Node> jobs = Tree.items(rtSpec, "template", "spec", "replicatedJobs");
    if (jobs.isEmpty()) {
      return p.cannot(o, ref, kind + " " + name + " has no spec.template.spec.replicatedJobs");
    }
    if (Tree.get(o.node(), "spec", "runtimePatches") != null) {
      p.warnings.at("TrainJob:runtimePatches", Tree.get(o.node(), "spec", "runtimePatches"), o.describe()
          + ": spec.runtimePatches are not modelled by batchsim; the runtime's pod templates are used as they are");
    }
    Node mlPolicy = Tree.get(rtSpec, "mlPolicy");
    Node trainer = Tree.get(o.node(), "spec", "trainer");
    Node numNodes = Tree.get(trainer, "numNodes");
    boolean mpi = Tree.get(mlPolicy, "mpi") != null;
    boolean launcherAsNode = "true".equals(Tree.text(mlPolicy, "mpi", "runLauncherAsNode"));
    List<Node> built = new ArrayList<>();
    for (Node rj : jobs) {
      String jobName = Tree.text(rj, "name");
      String ancestor = Tree.text(rj, "template", "metadata", "labels", ANCESTOR);
      boolean isTrainer = "trainer".equals(ancestor) && mlPolicy != null;
      long count = Math.max(p.number(Tree.get(rj, "template", "spec", "parallelism"), 1), 1);
      if (isTrainer) {
        count = p.number(Tree.get(mlPolicy, "numNodes"), 1);
      }
      if (numNodes != null && (mpi ? "node".equals(jobName) : "trainer".equals(ancestor))) {
        long n = p.number(numNodes, 1);
        count = mpi && launcherAsNode ? Math.max(n - 1, 1) : n;
      }
      long replicas = ancestor != null && ONE_REPLICA.contains(ancestor) ? 1 : p.number(Tree.get(rj, "replicas"), 1);
      Node resources = Tree.get(trainer, "resourcesPerNode");
      Node podTemplate = Tree.get(rj, "template", "spec", "template");
      if (resources != null && podTemplate != null && (isTrainer || mpi && launcherAsNode && "node".equals(jobName))) {
        podTemplate = withNodeResources(podTemplate, resources);
      }
      built.add(replicatedJob(rj, replicas, count, podTemplate));
    }
    return p.template(o, jobSets.replicatedJobs(o, built, "TrainJob " + o.name() + " (" + kind + " " + name + ")"),
        BatchJobs.templates(built));
  }

  /** A replicated job {@code {name, replicas, template: {spec: {parallelism, completions, template}}}}. */
  private static Node replicatedJob(Node rj, long replicas, long count, Node podTemplate) {
    Node jobSpec = Tree.get(rj, "template", "spec");
    Node at = jobSpec == null ? rj : jobSpec;
    Tree.Map_ spec = Tree.map(at.location(), at.path())
        .put("parallelism", Tree.integer(at.location(), at.path(), count))
        .put("completions", Tree.integer(at.location(), at.path(), count))
        .put("template", podTemplate);
    return Tree.map(rj.location(), rj.path()).put("name", Tree.get(rj, "name"))
        .put("replicas", Tree.integer(rj.location(), rj.path(), replicas))
        .put("template", Tree.map(at.location(), at.path()).put("spec", spec.build()).build()).build();
  }

  /** The pod template with the {@code node} container's requests and limits overridden key by key. */
  private static Node withNodeResources(Node podTemplate, Node resourcesPerNode) {
    Node spec = Tree.get(podTemplate, "spec");
    List<Node> containers = new ArrayList<>();
    for (Node c : Tree.items(spec, "containers")) {
      if (!"node".equals(Tree.text(c, "name"))) {
        containers.add(c);
        continue;
      }
      Node resources = Tree.get(c, "resources") == null ? Tree.map(c) : Tree.get(c, "resources");
      for (String part : List.of("requests", "limits")) {
        Tree.Map_ merged = Tree.map(resources.location(), part);
        Tree.entries(resources, part).forEach((k, e) -> merged.put(k, e.value()));
        Map<String, batchsim.scenarios.yaml.MapNode.Entry> override = Tree.entries(resourcesPerNode, part);
        override.forEach((k, e) -> merged.put(k, e.value()));
        resources = PodTemplates.with(resources, part, merged.build());
      }
      containers.add(PodTemplates.with(c, "resources", resources));
    }
    return PodTemplates.with(podTemplate, "spec", PodTemplates.with(spec, "containers",
        Tree.list(spec.location(), "containers", containers)));
  }
}
