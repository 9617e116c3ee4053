package batchsim.scenarios.imports;

import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.List;

/**
 * CodeFlare's AppWrapper (workload.codeflare.dev/v1beta2). Kueue (appwrapper.PodSets, through the
 * AppWrapper library's GetComponentPodSpecs): per component, its pod sets — the declared
 * {@code podSets: [{path, replicas}]}, or those the library infers for a Job, JobSet, PyTorchJob, RayCluster,
 * RayJob, Pod, Deployment or StatefulSet — each the pod template at {@code path} with replicas (default 1)
 * pods, named {@code <appwrapper>-<index>} over all components.
 */
final class AppWrappers {
  /** A pod set of a component: where its template is, and its replica count (null: 1). */
  private record Declared(String path, Long replicas) {}

  private final PodTemplates p;

  AppWrappers(PodTemplates p) {
    this.p = p;
  }

  JobTemplate read(KubeObject o) {
    List<Node> components = Tree.items(o.node(), "spec", "components");
    if (components.isEmpty()) {
      return p.cannot(o, Tree.get(o.node(), "spec"), "AppWrapper " + o.name() + " has no spec.components");
    }
    List<Tree.Map_> sets = new ArrayList<>();
    List<Node> templates = new ArrayList<>();
    for (Node component : components) {
      Node wrapped = Tree.get(component, "template");
      List<Declared> declared = new ArrayList<>();
      for (Node ps : Tree.items(component, "podSets")) {
        Node replicas = Tree.get(ps, "replicas");
        declared.add(new Declared(Tree.text(ps, "path"), replicas == null ? null : p.number(replicas, 1)));
      }
      if (declared.isEmpty()) {
        declared = infer(wrapped);
      }
      if (declared.isEmpty()) {
        return p.cannot(o, component, "a component of kind " + Tree.text(wrapped, "kind") + " declares no podSets "
            + "and is not one whose pods the AppWrapper library infers");
      }
      for (Declared d : declared) {
        Node template = d.path() == null ? null : at(component, d.path());
        if (template == null) {
          return p.cannot(o, component, "podSets path " + d.path() + " does not lead to a pod template");
        }
        templates.add(template);
        sets.add(p.podSet(o, PodTemplates.podSetName(o.name() + "-" + sets.size()), d.replicas() == null ? 1
            : d.replicas(), template, "AppWrapper " + o.name()));
      }
    }
    return p.template(o, sets, templates);
  }

  /** The AppWrapper library's InferPodSets for the kinds it knows. */
  private List<Declared> infer(Node wrapped) {
    String kind = Tree.text(wrapped, "kind");
    String api = String.valueOf(Tree.text(wrapped, "apiVersion"));
    List<Declared> out = new ArrayList<>();
    if (kind == null) {
      return out;
    }
    Node spec = Tree.get(wrapped, "spec");
    switch (kind) {
      case "Job" -> out.add(new Declared("template.spec.template", p.jobCount(spec)));
      case "JobSet" -> {
        List<Node> jobs = Tree.items(spec, "replicatedJobs");
        for (int i = 0; i < jobs.size(); i++) {
          long replicas = p.number(Tree.get(jobs.get(i), "replicas"), 1);
          out.add(new Declared("template.spec.replicatedJobs[" + i + "].template.spec.template",
              replicas * p.jobCount(Tree.get(jobs.get(i), "template", "spec"))));
        }
      }
      case "PyTorchJob" -> {
        for (String type : List.of("Master", "Worker")) {
          Node rs = Tree.get(spec, "pytorchReplicaSpecs", type);
          if (Tree.get(rs, "template") != null) {
            out.add(new Declared("template.spec.pytorchReplicaSpecs." + type + ".template",
                p.number(Tree.get(rs, "replicas"), 1)));
          }
        }
      }
      case "RayCluster", "RayJob" -> {
        String prefix = kind.equals("RayJob") ? "template.spec.rayClusterSpec." : "template.spec.";
        Node cluster = kind.equals("RayJob") ? Tree.get(spec, "rayClusterSpec") : spec;
        out.add(new Declared(prefix + "headGroupSpec.template", 1L));
        List<Node> groups = Tree.items(cluster, "workerGroupSpecs");
        for (int i = 0; i < groups.size(); i++) {
          if (Tree.get(groups.get(i), "template") != null) {
            out.add(new Declared(prefix + "workerGroupSpecs[" + i + "].template",
                p.number(Tree.get(groups.get(i), "replicas"), 1)));
          }
        }
      }
      case "Pod" -> out.add(new Declared("template", 1L));
      case "Deployment", "StatefulSet" -> {
        if (api.startsWith("apps/")) {
          out.add(new Declared("template.spec.template", p.number(Tree.get(spec, "replicas"), 1)));
        }
      }
      default -> { }
    }
    return out;
  }

  /** The node at an AppWrapper path ({@code template.spec.replicatedJobs[0].template...}) from the component. */
  private static Node at(Node component, String path) {
    Node cursor = component;
    for (String step : path.split("\\.")) {
      int bracket = step.indexOf('[');
      String key = bracket < 0 ? step : step.substring(0, bracket);
      cursor = key.isEmpty() ? cursor : Tree.get(cursor, key);
      while (bracket >= 0 && cursor != null) {
        int end = step.indexOf(']', bracket);
        if (end < 0 || !(cursor instanceof ListNode l)) {
          return null;
        }
        int i;
        try {
          i = Integer.parseInt(step.substring(bracket + 1, end));
        } catch (NumberFormatException e) {
          return null;
        }
        cursor = i >= 0 && i < l.items().size() ? l.items().get(i) : null;
        bracket = step.indexOf('[', end);
      }
    }
    return cursor instanceof MapNode && Tree.get(cursor, "spec") != null ? cursor : null;
  }
}
