package batchsim.scenarios.imports;

import static batchsim.scenarios.imports.ScenarioDraft.HERE;

import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Volcano's objects as a {@code scheduler: volcano} scenario: Queues (with their hierarchy) and the
 * volcano-scheduler ConfigMap become the {@code volcano:} section, vcjobs and standalone PodGroups become
 * workload classes, Kubernetes PriorityClasses their priority classes. A job's LocalQueue is
 * {@code <namespace>/<Volcano queue>}, mapped by {@code volcano.queueFor}; the ClusterQueues behind those
 * LocalQueues are generated as for any job manifest and matter only under Kueue. A scenario has one
 * scheduler, so Kueue objects, Kueue jobs, traces and generator files cannot come along (an error, located).
 */
final class VolcanoImport {
  private static final String ROOT = "root";

  private final ScenarioDraft d;
  private final List<KubeObject> objects;

  private VolcanoImport(ScenarioDraft d, List<KubeObject> objects) {
    this.d = d;
    this.objects = objects;
  }

  /** Volcano's objects (and, with them, PriorityClasses). */
  static boolean handles(KubeObject o) {
    return VolcanoJobReader.handles(o) || VolcanoQueueReader.handles(o) || VolcanoConfReader.handles(o);
  }

  /** A pod neither Volcano's (no group annotation) nor Kueue's (no Kueue label): not scheduled by either. */
  private static boolean strayPod(KubeObject o) {
    return o.kind().equals("Pod") && o.group().isEmpty() && !VolcanoJobReader.handles(o)
        && !PodTemplates.queued(o)
        && Tree.get(o.node(), "metadata", "labels", BatchJobs.GROUP_LABEL) == null;
  }

  /**
   * The objects left for the other readers: all of them without Volcano objects; with them, what is neither
   * Volcano's nor a PriorityClass, and no pod that neither Volcano nor Kueue schedules (warned). Refuses
   * Kueue's objects and jobs, and generator files, alongside Volcano's (one scheduler per scenario).
   */
  static List<KubeObject> others(ScenarioDraft d, List<KubeObject> objects) {
    KubeObject first = objects.stream().filter(VolcanoImport::handles).findFirst().orElse(null);
    if (first == null) {
      return objects;
    }
    objects.stream().filter(VolcanoImport::strayPod).forEach(o -> d.warnings.add("volcano:pod", o.location(),
        o.describe() + ": no " + VolcanoJobReader.GROUP_NAME + " annotation, so Volcano does not schedule it; skipped"));
    List<KubeObject> rest =
        objects.stream().filter(o -> !handles(o) && !Priorities.handles(o) && !strayPod(o)).toList();
    String with = " cannot be imported with Volcano objects (" + first.describe() + " at " + first.location()
        + "): a scenario has one scheduler. Import them separately";
    KubeObject kueue = rest.stream().filter(o -> KueueManifestReader.handles(o) || JobTemplateReader.handles(o))
        .findFirst().orElse(null);
    if (kueue != null) {
      d.errors.add(kueue.location() + ": " + kueue.describe() + with);
    } else if (!d.classes.isEmpty() || !d.clusterQueues.isEmpty()) { // only generator files came before
      d.errors.add(first.location() + ": a Kueue generator file" + with);
    }
    return rest;
  }

  /**
   * Translates the Volcano objects among {@code objects} into {@code d} (classes through {@code jobClass}),
   * after the nodes: a queue may bound resources only nodes have.
   */
  static void translate(ScenarioDraft d, List<KubeObject> objects, Consumer<JobTemplate> jobClass) {
    List<KubeObject> volcano = objects.stream().filter(VolcanoImport::handles).toList();
    if (!volcano.isEmpty()) {
      new VolcanoImport(d, volcano).translate(objects.stream().filter(Priorities::handles).toList(),
          jobClass);
    }
  }

  /** Traces go to generated Kueue queues: refused with Volcano objects. */
  static void noTraces(ScenarioDraft d, Path trace) {
    if (d.volcano != null) {
      d.errors.add(trace + ": a trace cannot be imported with Volcano objects: a scenario has one scheduler, and a "
          + "trace's queues are generated for Kueue. Import it separately");
    }
  }

  private void translate(List<KubeObject> priorityClasses, Consumer<JobTemplate> jobClass) {
    List<JobTemplate> templates = VolcanoJobReader.read(objects, d.sink, d.warnings);
    VolcanoConfReader.Conf conf = conf();
    boolean hierarchical = conf != null && conf.hierarchical();
    Map<String, VolcanoQueueReader.Queue> queues = new LinkedHashMap<>();
    for (VolcanoQueueReader.Queue q : VolcanoQueueReader.read(objects, resources(templates), d.warnings)) {
      queues.putIfAbsent(q.name(), q);
    }
    Set<String> parents = new LinkedHashSet<>();
    queues.values().forEach(q -> {
      if (q.parent() != null) {
        parents.add(q.parent().text());
      }
    });
    List<Node> entries = new ArrayList<>();
    for (VolcanoQueueReader.Queue q : queues.values()) {
      entries.add(entry(q, hierarchical));
    }
    Tree.Map_ queueFor = Tree.map(HERE, "queueFor");
    for (JobTemplate t : templates) {
      ScalarNode lq = (ScalarNode) t.template().get("queue");
      String target = lq.text().substring(lq.text().indexOf('/') + 1);
      String job = t.kind() + " " + lq.text().substring(0, lq.text().indexOf('/') + 1) + t.name();
      if (hierarchical && (parents.contains(target) || target.equals(ROOT))) {
        d.sink.report(lq.location(), lq.path(), job + ": queue " + target + " has child "
            + "queues; with hierarchical capacity Volcano schedules jobs in leaf queues only (a job in another "
            + "queue stops the capacity plugin for every queue). Move it to a leaf queue to import");
      }
      if (!queues.containsKey(target) && !target.equals(VolcanoJobReader.DEFAULT_QUEUE)) {
        d.warnings.add("volcano:queue:" + target, lq.location(), job + ": queue " + target
            + " is not among the input Queues; generated as a placeholder (weight 1, no quota): edit");
        MapNode placeholder = Tree.map(lq.location(), "").put("name", target, lq.location()).build();
        d.comments.put(placeholder, List.of("placeholder: queue " + target + " of " + job
            + " (" + lq.location() + ") is not among the inputs"));
        queues.put(target, new VolcanoQueueReader.Queue(target, null, placeholder));
        entries.add(placeholder);
      }
      queueFor.put(lq.text(), target, lq.location());
      jobClass.accept(t);
    }
    priorityClasses(priorityClasses, templates);
    Tree.Map_ v = Tree.map(HERE, "volcano");
    List<String> about = new ArrayList<>();
    if (conf != null) {
      if (conf.preset().equals("capacity")) {
        v.put("plugins", "capacity", conf.at());
      }
      if (hierarchical) {
        v.put("hierarchical", new ScalarNode(conf.at(), "hierarchical", "true", ScalarNode.Type.BOOL));
      }
      v.put("actions", Tree.list(conf.at(), "actions", conf.actions()));
      if (!conf.pluginOptions().entries().isEmpty()) {
        v.put("pluginOptions", conf.pluginOptions());
      }
      about.add("Scheduler configuration from " + conf.at() + " (volcano-scheduler.conf): Volcano's " + conf.preset()
          + " tiers" + (conf.switchedOff().isEmpty() ? "" : "; " + String.join(", ", conf.switchedOff())
          + " not configured there, so every switch is off") + ".");
    } else {
      about.add("No volcano-scheduler ConfigMap among the inputs: Volcano's default configuration (proportion).");
    }
    if (!queueFor.isEmpty()) {
      v.put("queueFor", queueFor.build());
    }
    if (!entries.isEmpty()) {
      v.put("queues", Tree.list(HERE, "queues", entries));
    }
    about.add("Jobs name the LocalQueue <namespace>/<Volcano queue>; queueFor sends it to the Volcano queue. The "
        + "clusterQueues and localQueues are generated for Kueue runs only.");
    d.scheduler = "volcano";
    d.volcano = v.build();
    d.volcanoSources.addAll(about);
  }

  /** A queue entry: name, then its parent where the hierarchy counts, then the rest. */
  private MapNode entry(VolcanoQueueReader.Queue q, boolean hierarchical) {
    MapNode e = q.entry();
    d.comments.put(e, List.of("from " + e.location()));
    if (q.parent() == null) {
      return e;
    }
    if (!hierarchical) {
      d.warnings.at("Queue:parent", q.parent(), "Queue " + q.name() + ": spec.parent " + q.parent().text()
          + " counts only with capacity's enableHierarchy, which the scheduler configuration does not set "
          + "(Volcano ignores it too); dropped");
      return e;
    }
    Tree.Map_ out = Tree.map(e.location(), e.path());
    e.entries().forEach((k, x) -> {
      out.put(k, x.value());
      if (k.equals("name")) {
        out.put("parent", q.parent());
      }
    });
    MapNode built = out.build();
    d.comments.put(built, List.of("from " + e.location()));
    return built;
  }

  /** The one scheduler configuration, or null (Volcano's default). */
  private VolcanoConfReader.Conf conf() {
    List<KubeObject> cms = objects.stream().filter(VolcanoConfReader::handles).toList();
    if (cms.size() > 1) {
      d.errors.add(cms.get(1).location() + ": " + cms.get(1).describe() + ": a second volcano-scheduler "
          + "configuration (the first is at " + cms.get(0).location() + "); import one");
    }
    return cms.isEmpty() ? null : VolcanoConfReader.read(cms.get(0), d.sink, d.warnings);
  }

  /** The scenario's resource names: cpu, memory, pods, the nodes' and the jobs' (queues may name only these). */
  private Set<String> resources(List<JobTemplate> templates) {
    Set<String> out = new LinkedHashSet<>(List.of("cpu", "memory", "pods"));
    out.addAll(d.capacity.keySet());
    for (JobTemplate t : templates) {
      Tree.items(t.template(), "podSets").forEach(ps -> out.addAll(Tree.entries(ps, "requests").keySet()));
    }
    return out;
  }

  /** Kubernetes PriorityClasses ({@code value}); a class a job names that is not among them is a placeholder. */
  private void priorityClasses(List<KubeObject> classes, List<JobTemplate> templates) {
    Set<String> known = new LinkedHashSet<>();
    for (KubeObject o : classes) {
      MapNode pc = Tree.map(o.location(), o.node().path()).put("name", Tree.get(o.node(), "metadata", "name"))
          .put("value", Tree.get(o.node(), "value")).build();
      if ("true".equals(Tree.text(o.node(), "globalDefault"))) {
        d.warnings.add("PriorityClass:globalDefault", o.location(), "PriorityClass " + o.name() + " is the "
            + "global default; batchsim gives jobs without a priority class 0, not its value");
      }
      if (known.add(o.name())) {
        d.priorityClasses.add(pc);
        d.comments.put(pc, List.of("from " + pc.location()));
      }
    }
    for (JobTemplate t : templates) {
      Node pc = t.template().get("priorityClass");
      if (pc instanceof ScalarNode s && known.add(s.text())) {
        d.warnings.add("volcano:priorityClass", s.location(), t.kind() + " " + t.name() + ": PriorityClass "
            + s.text() + " is not among the inputs; generated with value 0: edit (kubectl get priorityclasses -o yaml)");
        MapNode placeholder = Tree.map(s.location(), "").put("name", s.text(), s.location())
            .put("value", Tree.integer(s.location(), "value", 0)).build();
        d.priorityClasses.add(placeholder);
        d.comments.put(placeholder, List.of("placeholder: PriorityClass " + s.text() + " is not among the inputs"));
      }
    }
  }
}
