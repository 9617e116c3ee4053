package batchsim.scenarios.imports;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Workload templates from the job kinds Kueue integrates at ff69552e (pkg/controller/jobs/jobs.go,
 * RegisterIntegrations): AppWrapper, Deployment, Job, JobSet, the Kubeflow jobs (PyTorchJob, TFJob,
 * PaddleJob, XGBoostJob, JAXJob), LeaderWorkerSet, MPIJob, Pod (plain pods and pod groups), RayCluster,
 * RayJob, RayService, SparkApplication, StatefulSet and TrainJob. Each becomes a scenario-shaped map
 * {@code {queue, priorityClass, podSets}} with the pod sets Kueue's integration for that kind derives (the
 * family readers say how). Objects that another input object owns (a JobSet's Jobs, a RayJob's RayCluster,
 * a Deployment's ReplicaSet and Pods) are counted with their owner. An object that carries the queue label
 * but is of a kind Kueue does not integrate, or that cannot be modelled, is a located error.
 */
public final class JobTemplateReader {

  private JobTemplateReader() {}

  /**
   * One workload template: {@code name} as the manifest names it, {@code template} the scenario map, the
   * object (the first pod of a group) it came from, and {@code standing}: null for a job (submitted as
   * the class's arrivals say), else how many Kueue Workloads the standing object (Deployment, StatefulSet,
   * LeaderWorkerSet) is at once.
   */
  public record JobTemplate(String name, String kind, KubeObject source, MapNode template, Integer standing) {}

  /**
   * Objects this reader consumes: jobs, the runtimes TrainJobs refer to, and any other object that carries
   * the queue label (an error here, so not also an ignored kind).
   */
  public static boolean handles(KubeObject o) {
    return kind(o) != null || TrainJobs.isRuntime(o) || PodTemplates.queued(o) && !o.group().startsWith("kueue.x-k8s.io");
  }

  /** The integration that reads {@code o}, or null. */
  private static String kind(KubeObject o) {
    String k = o.kind();
    String g = o.group();
    boolean known = switch (g) {
      case "" -> k.equals("Pod");
      case "batch" -> k.equals("Job");
      case "apps" -> k.equals("Deployment") || k.equals("StatefulSet");
      case "jobset.x-k8s.io" -> k.equals("JobSet");
      case "kubeflow.org" -> KubeflowJobs.handles(o);
      case "leaderworkerset.x-k8s.io" -> k.equals("LeaderWorkerSet");
      case "ray.io" -> k.equals("RayCluster") || k.equals("RayJob") || k.equals("RayService");
      case "sparkoperator.k8s.io" -> k.equals("SparkApplication");
      case "workload.codeflare.dev" -> k.equals("AppWrapper");
      case TrainJobs.GROUP -> k.equals("TrainJob");
      default -> false;
    };
    return known ? k : null;
  }

  /**
   * The templates among {@code objects}, in order (a pod group where its first pod is); priority class
   * names pass through unresolved (a scenario's {@code manifest:}).
   */
  public static List<JobTemplate> read(List<KubeObject> objects, IssueSink problems, Warnings warnings) {
    return read(objects, Priorities.unresolved(), problems, warnings);
  }

  /**
   * The templates among {@code jobs}, priorities resolved as Kueue would against the WorkloadPriorityClass
   * and PriorityClass objects among {@code classes} (a cluster's snapshot) and {@code jobs}.
   */
  public static List<JobTemplate> read(List<KubeObject> jobs, List<KubeObject> classes, IssueSink problems,
      Warnings warnings) {
    List<KubeObject> all = new ArrayList<>(classes);
    all.addAll(jobs);
    return read(jobs, Priorities.of(all, problems, warnings), problems, warnings);
  }

  /** As {@link #read(List, IssueSink, Warnings)}, with priorities resolved against the inputs' classes. */
  static List<JobTemplate> read(List<KubeObject> objects, Priorities priorities, IssueSink problems,
      Warnings warnings) {
    PodTemplates p = new PodTemplates(problems, warnings, priorities);
    BatchJobs batch = new BatchJobs(p);
    ServingJobs serving = new ServingJobs(p);
    KubeflowJobs kubeflow = new KubeflowJobs(p);
    RayJobs ray = new RayJobs(p);
    SparkApplications spark = new SparkApplications(p);
    AppWrappers wrappers = new AppWrappers(p);
    TrainJobs train = new TrainJobs(p, batch, objects.stream().filter(TrainJobs::isRuntime).toList());
    Owners owners = new Owners(objects);
    List<JobTemplate> out = new ArrayList<>();
    Map<String, List<KubeObject>> groups = new LinkedHashMap<>();
    for (KubeObject o : objects) {
      String kind = kind(o);
      if (!handles(o) || TrainJobs.isRuntime(o)) {
        continue;
      }
      if (owners.owned(o)) {
        warnings.add("owned:" + o.kind(), o.location(), o.describe() + " belongs to " + owners.owner(o)
            + ", which the inputs hold: counted with it, not on its own");
        continue;
      }
      if (kind == null) {
        problems.report(o.location(), o.node().path(), o.describe() + " carries " + PodTemplates.QUEUE_LABEL + " but " + o.kind()
            + " (" + o.apiVersion() + ") is not a job kind Kueue integrates at ff69552e; batchsim cannot model it");
        continue;
      }
      JobTemplate t = switch (kind) {
        case "Job" -> batch.job(o);
        case "JobSet" -> batch.jobSet(o);
        case "Deployment" -> serving.deployment(o);
        case "StatefulSet" -> serving.statefulSet(o);
        case "LeaderWorkerSet" -> serving.leaderWorkerSet(o);
        case "RayCluster" -> ray.rayCluster(o);
        case "RayJob" -> ray.rayJob(o);
        case "RayService" -> ray.rayService(o);
        case "SparkApplication" -> spark.read(o);
        case "AppWrapper" -> wrappers.read(o);
        case "TrainJob" -> train.read(o);
        case "Pod" -> pod(o, groups, warnings);
        default -> kubeflow.read(o);
      };
      if (t != null) {
        out.add(t);
      }
    }
    List<JobTemplate> result = new ArrayList<>();
    var it = groups.entrySet().iterator();
    for (JobTemplate t : out) {
      if (t != GROUP_PLACEHOLDER) {
        result.add(t);
      } else {
        var g = it.next();
        result.add(batch.podGroup(g.getValue(), g.getKey().substring(g.getKey().indexOf('/') + 1)));
      }
    }
    return result;
  }

  private static final JobTemplate GROUP_PLACEHOLDER = new JobTemplate("", "", null, null, null);

  /** A lone pod's template, or a placeholder where a pod group's first pod is (the group is read at the end). */
  private static JobTemplate pod(KubeObject o, Map<String, List<KubeObject>> groups, Warnings warnings) {
    if (!PodTemplates.queued(o) && !Tree.items(o.node(), "metadata", "ownerReferences").isEmpty()) {
      warnings.add("Pod:controlled", o.location(), o.describe() + " has no " + PodTemplates.QUEUE_LABEL + " label and belongs to "
          + "a controller that is not among the inputs: not Kueue's; ignored");
      return null;
    }
    String group = Tree.text(o.node(), "metadata", "labels", BatchJobs.GROUP_LABEL);
    String key = PodTemplates.namespace(o) + "/" + (group == null ? o.name() : group);
    if (group == null) {
      key = "\u0000" + key; // a lone pod never joins a group of the same name
    }
    boolean first = !groups.containsKey(key);
    groups.computeIfAbsent(key, k -> new ArrayList<>()).add(o);
    return first ? GROUP_PLACEHOLDER : null;
  }

  /**
   * Ownership among the inputs: an object whose controller owner (or its owner's owner: a Deployment's
   * ReplicaSet's pods) is a job among the inputs is part of that job's workload.
   */
  private static final class Owners {
    private final Set<String> present = new HashSet<>();
    private final Map<String, String> parents = new LinkedHashMap<>();

    Owners(List<KubeObject> objects) {
      for (KubeObject o : objects) {
        String self = PodTemplates.namespace(o) + "/" + o.kind() + "/" + o.name();
        if (kind(o) != null) {
          present.add(self); // only a job kind owns: a CronJob's Jobs are Kueue's own jobs
        }
        String parent = controller(o);
        if (parent != null) {
          parents.put(self, parent);
        }
      }
    }

    private static String controller(KubeObject o) {
      for (Node ref : Tree.items(o.node(), "metadata", "ownerReferences")) {
        if ("true".equals(Tree.text(ref, "controller"))) {
          return PodTemplates.namespace(o) + "/" + Tree.text(ref, "kind") + "/" + Tree.text(ref, "name");
        }
      }
      return null;
    }

    /** The topmost ancestor of {@code o} among the inputs, as {@code Kind/name}, or null. */
    String owner(KubeObject o) {
      String at = parents.get(PodTemplates.namespace(o) + "/" + o.kind() + "/" + o.name());
      String found = null;
      for (int depth = 0; at != null && depth < 8; depth++) {
        if (present.contains(at)) {
          found = at.substring(at.indexOf('/') + 1);
        }
        String next = parents.get(at);
        if (next == null && at.contains("/ReplicaSet/") && at.lastIndexOf('-') > at.indexOf("/ReplicaSet/")) {
          // a Deployment's ReplicaSet is <deployment>-<hash>; the ReplicaSet itself need not be an input
          next = at.substring(0, at.indexOf("/ReplicaSet/")) + "/Deployment/"
              + at.substring(at.indexOf("/ReplicaSet/") + 12, at.lastIndexOf('-'));
        }
        at = next;
      }
      return found;
    }

    boolean owned(KubeObject o) {
      return owner(o) != null;
    }
  }
}
