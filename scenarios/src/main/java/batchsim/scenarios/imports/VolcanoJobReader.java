package batchsim.scenarios.imports;

import batchsim.core.model.Quantity;
import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Workload templates from Volcano's job objects, each a scenario-shaped map {@code {queue, priorityClass,
 * podSets}} like {@link JobTemplateReader}'s:
 * <ul>
 *   <li>a vcjob ({@code batch.volcano.sh} Job): one pod set per task, {@code replicas} pods; the PodGroup
 *       Volcano's job controller creates for it (owned by the Job) and the Job's pods belong to it;
 *   <li>a standalone PodGroup ({@code scheduling.volcano.sh}) and the pods annotated
 *       {@code scheduling.k8s.io/group-name} with its name: one pod set per distinct pod shape.
 * </ul>
 * The queue is the LocalQueue {@code <namespace>/<Volcano queue>} (the import maps it to the Volcano queue);
 * the priority class is {@code priorityClassName}. batchsim's Volcano gangs need every pod (minMember = all
 * pods), so a job whose {@code minAvailable} / {@code minMember} is another number is refused where it is
 * written: it could start with fewer pods in Volcano, and batchsim's answer would differ. Fields of the
 * job's lifecycle that batchsim does not model (policies, plugins, retries, volumes) are warned about.
 */
public final class VolcanoJobReader {
  static final String BATCH = "batch.volcano.sh";
  static final String SCHEDULING = "scheduling.volcano.sh";
  static final String GROUP_NAME = "scheduling.k8s.io/group-name";
  static final String DEFAULT_QUEUE = "default";
  private static final String SCHEDULER = "volcano";
  private static final Set<String> JOB_FIELDS = Set.of("schedulerName", "minAvailable", "tasks", "queue",
      "priorityClassName", "networkTopology");
  private static final Set<String> TASK_FIELDS = Set.of("name", "replicas", "minAvailable", "template");
  private static final Set<String> GROUP_FIELDS = Set.of("minMember", "minTaskMember", "queue", "priorityClassName",
      "minResources", "networkTopology");

  private final IssueSink problems;
  private final Warnings warnings;
  /** Pod sets from pod templates, as for Kueue's jobs (Volcano's priority classes are read by VolcanoImport). */
  private final PodTemplates pods;

  private VolcanoJobReader(IssueSink problems, Warnings warnings) {
    this.problems = problems;
    this.warnings = warnings;
    this.pods = new PodTemplates(problems, warnings, Priorities.unresolved());
  }

  /** A vcjob, a PodGroup, or a pod that names a PodGroup. */
  public static boolean handles(KubeObject o) {
    return isJob(o) || isPodGroup(o) || o.kind().equals("Pod") && o.group().isEmpty() && groupName(o) != null;
  }

  static boolean isJob(KubeObject o) {
    return o.kind().equals("Job") && o.group().equals(BATCH);
  }

  static boolean isPodGroup(KubeObject o) {
    return o.kind().equals("PodGroup") && o.group().equals(SCHEDULING);
  }

  private static String groupName(KubeObject o) {
    return Tree.text(o.node(), "metadata", "annotations", GROUP_NAME);
  }

  /** The templates among {@code objects}, in input order. */
  public static List<JobTemplate> read(List<KubeObject> objects, IssueSink problems, Warnings warnings) {
    VolcanoJobReader r = new VolcanoJobReader(problems, warnings);
    Set<String> jobs = new HashSet<>();
    Map<String, List<KubeObject>> podsByGroup = new LinkedHashMap<>();
    Map<String, KubeObject> groups = new LinkedHashMap<>();
    for (KubeObject o : objects) {
      if (isJob(o)) {
        jobs.add(key(o, o.name()));
      } else if (isPodGroup(o)) {
        groups.putIfAbsent(key(o, o.name()), o);
      } else if (handles(o)) {
        podsByGroup.computeIfAbsent(key(o, groupName(o)), k -> new ArrayList<>()).add(o);
      }
    }
    List<JobTemplate> out = new ArrayList<>();
    for (KubeObject o : objects) {
      if (isJob(o)) {
        out.add(r.job(o));
      } else if (isPodGroup(o)) {
        String owner = r.ownerJob(o);
        if (owner == null) {
          JobTemplate t = r.podGroup(o, podsByGroup.getOrDefault(key(o, o.name()), List.of()));
          if (t != null) {
            out.add(t);
          }
        } else if (!jobs.contains(key(o, owner))) {
          warnings.add("PodGroup:owner", o.location(), o.describe() + " belongs to Volcano Job " + owner
              + ", which is not among the inputs; skipped (import the Job: kubectl get vcjobs -A -o yaml)");
        }
      }
    }
    podsByGroup.forEach((k, pods) -> {
      if (!groups.containsKey(k) && !jobs.contains(k.substring(0, k.indexOf('/') + 1)
          + Tree.text(pods.get(0).node(), "metadata", "labels", "volcano.sh/job-name"))) {
        warnings.add("Pod:group", pods.get(0).location(), pods.get(0).describe() + " names PodGroup "
            + k + " (" + GROUP_NAME + "), which is not among the inputs; its " + pods.size() + " pod(s) skipped");
      }
    });
    return out;
  }

  private static String key(KubeObject o, String name) {
    return o.namespaceOrDefault() + "/" + name;
  }

  /** The Volcano Job that owns a PodGroup (its controller reference), or null. */
  private String ownerJob(KubeObject pg) {
    for (Node ref : Tree.items(pg.node(), "metadata", "ownerReferences")) {
      String api = Tree.text(ref, "apiVersion");
      if ("Job".equals(Tree.text(ref, "kind")) && api != null && api.startsWith(BATCH + "/")) {
        return Tree.text(ref, "name");
      }
    }
    return null;
  }

  // ---- vcjob --------------------------------------------------------------------------------------------

  private JobTemplate job(KubeObject o) {
    Node spec = Tree.get(o.node(), "spec");
    String what = "Volcano Job " + key(o, o.name());
    notModelled(spec, JOB_FIELDS, "vcjob", what);
    scheduler(Tree.get(spec, "schedulerName"), what);
    topology(Tree.get(spec, "networkTopology"), what);
    Tree.Map_ t = header(o, Tree.get(spec, "queue"), Tree.get(spec, "priorityClassName"));
    List<Node> sets = new ArrayList<>();
    long total = 0;
    for (Node task : Tree.items(spec, "tasks")) {
      String name = Tree.text(task, "name");
      String taskWhat = what + " task " + name;
      notModelled(task, TASK_FIELDS, "vcjob task", taskWhat);
      long replicas = pods.number(Tree.get(task, "replicas"), 0);
      Node min = Tree.get(task, "minAvailable");
      if (min != null && pods.number(min, replicas) > replicas) {
        problems.report(min.location(), min.path(), taskWhat + ": minAvailable " + Tree.text(min) + " exceeds its "
            + replicas + " replicas, so Volcano could never start it");
      }
      if (replicas == 0) {
        continue; // a task scaled to zero has no pods
      }
      total += replicas;
      sets.add(pods.podSet(o, name == null ? "task" + sets.size() : name, replicas, Tree.get(task, "template"),
          taskWhat).build());
    }
    if (sets.isEmpty()) {
      problems.report(o.location(), o.node().path(), what + " has no task with replicas, so it has no pods");
    }
    Node min = Tree.get(spec, "minAvailable");
    if (min != null && !sets.isEmpty()) {
      gang(min, pods.number(min, total), total, "minAvailable", what);
    }
    t.put("podSets", Tree.list(o.location(), "podSets", sets));
    return new JobTemplate(o.name(), "Volcano Job", o, t.build(), null);
  }

  /**
   * batchsim's Volcano PodGroups have minMember = every pod. Volcano's webhook defaults minAvailable to the
   * sum of the tasks' replicas; another value makes an elastic gang (it starts with fewer pods) or one that
   * never starts.
   */
  private void gang(Node at, long min, long pods, String field, String what) {
    if (min != pods) {
      problems.report(at.location(), at.path(), what + ": " + field + " " + min + " but it has " + pods
          + " pods; " + (min < pods ? "Volcano starts it once " + min + " run, batchsim only when all do"
          : "Volcano never starts it") + " (batchsim's Volcano gangs are minMember = all pods). Set " + field
          + " to " + pods + " to import it as a whole gang");
    }
  }

  private void scheduler(Node name, String what) {
    if (name != null && !SCHEDULER.equals(Tree.text(name))) {
      warnings.at("vcjob:schedulerName", name, what + ": spec.schedulerName " + Tree.text(name)
          + ": batchsim schedules it with Volcano all the same");
    }
  }

  /** Hard network-topology constraints confine a gang to one HyperNode tier: not modelled, and binding. */
  private void topology(Node nt, String what) {
    if (nt == null) {
      return;
    }
    if ("hard".equals(Tree.text(nt, "mode"))) {
      problems.report(nt.location(), nt.path(), what + ": networkTopology mode hard confines the gang to a "
          + "HyperNode tier; batchsim does not model HyperNodes, so its answer would differ. Remove it to import");
    } else {
      warnings.at("volcano:networkTopology", nt, what + ": networkTopology (soft) is not modelled by batchsim "
          + "(no HyperNodes); ignored");
    }
  }

  // ---- standalone PodGroup ------------------------------------------------------------------------------

  private JobTemplate podGroup(KubeObject pg, List<KubeObject> pods) {
    Node spec = Tree.get(pg.node(), "spec");
    String what = "PodGroup " + key(pg, pg.name());
    if (pods.isEmpty()) {
      warnings.add("PodGroup:pods", pg.location(), what + ": no pod among the inputs names it (" + GROUP_NAME
          + "); skipped, there is nothing to schedule (import its pods in the same file: kubectl get podgroups,pods)");
      return null;
    }
    for (KubeObject p : pods) {
      if (!p.location().file().equals(pg.location().file())) {
        problems.report(p.location(), p.node().path(), p.describe() + " belongs to " + what + " at "
            + pg.location() + "; a PodGroup and its pods must be in one file (kubectl get podgroups,pods -o yaml)");
        return null;
      }
    }
    notModelled(spec, GROUP_FIELDS, "PodGroup", what);
    topology(Tree.get(spec, "networkTopology"), what);
    Tree.Map_ t = header(pg, Tree.get(spec, "queue"), Tree.get(spec, "priorityClassName"));
    List<Node> sets = new ArrayList<>();
    new BatchJobs(this.pods).podSetsByRole(pods, new ArrayList<>()).forEach(ps -> sets.add(ps.build()));
    Node min = Tree.get(spec, "minMember");
    gang(min == null ? pg.node() : min, min == null ? 1 : this.pods.number(min, 1), pods.size(), "minMember", what);
    minResources(Tree.get(spec, "minResources"), sets, what);
    t.put("podSets", Tree.list(pg.location(), "podSets", sets));
    return new JobTemplate(pg.name(), "PodGroup", pg, t.build(), null);
  }

  /** Enqueue checks minResources; batchsim's are every pod's requests. */
  private void minResources(Node min, List<Node> sets, String what) {
    Map<String, Long> all = new LinkedHashMap<>();
    for (Node ps : sets) {
      long count = pods.number(Tree.get(ps, "count"), 1);
      Tree.entries(ps, "requests").forEach((r, e) -> all.merge(r, count * quantity(r, e.value()), Long::sum));
    }
    Map<String, Long> given = new LinkedHashMap<>();
    Tree.entries(min).forEach((r, e) -> {
      if (!r.equals("pods") && !r.equals("count/pods")) { // Volcano counts the pods there too
        given.put(r, quantity(r, e.value()));
      }
    });
    given.values().removeIf(v -> v == 0);
    all.values().removeIf(v -> v == 0);
    if (!given.equals(all)) {
      Location at = min == null ? sets.get(0).location() : min.location();
      warnings.add("PodGroup:minResources", at, what + ": minResources " + (min == null ? "not set (Volcano's "
          + "enqueue then skips its queue checks)" : "differ from its pods' requests") + "; batchsim enqueues it "
          + "with minResources = all its pods' requests");
    }
  }

  private long quantity(String resource, Node n) {
    try {
      return Quantity.parse(resource, String.valueOf(Tree.text(n)));
    } catch (IllegalArgumentException e) {
      problems.report(n.location(), n.path(), e.getMessage());
      return 0;
    }
  }

  // ---- shared -------------------------------------------------------------------------------------------

  /** {@code queue: <namespace>/<Volcano queue>} (Volcano's default queue when none) and the priority class. */
  private Tree.Map_ header(KubeObject o, Node queue, Node priorityClass) {
    Tree.Map_ t = Tree.map(o.location(), "");
    String ns = o.namespaceOrDefault();
    Location at = queue == null ? o.location() : queue.location();
    String path = queue == null ? "queue" : queue.path();
    t.put("queue", Tree.string(at, path, ns + "/" + (queue == null ? DEFAULT_QUEUE : Tree.text(queue))));
    if (priorityClass != null) {
      t.put("priorityClass", priorityClass);
    }
    return t;
  }

  private void notModelled(Node spec, Set<String> modelled, String kind, String what) {
    Tree.entries(spec).forEach((k, e) -> {
      if (!modelled.contains(k) && !e.value().isNull()) {
        warnings.at(kind + ":" + k, e.key(), what + ": " + k + " is not modelled by batchsim; ignored"
            + (k.equals("policies") ? " (an evicted pod comes back and the job restarts when all its pods run)" : ""));
      }
    });
  }
}
