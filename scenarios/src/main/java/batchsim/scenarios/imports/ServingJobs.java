package batchsim.scenarios.imports;

import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.List;

/**
 * Standing objects whose pods Kueue admits as they are: Deployment, StatefulSet, LeaderWorkerSet. Each
 * becomes a template marked {@code standing} with the number of Kueue Workloads the object is at once, so
 * the import makes a workload class of that many workloads, all present at t=0.
 */
final class ServingJobs {
  private final PodTemplates p;

  ServingJobs(PodTemplates p) {
    this.p = p;
  }

  /**
   * Kueue (deployment integration): the webhook puts the queue label on the pod template, so every pod is
   * its own Workload (pod.constructPodSets: one pod set {@code main} of 1 pod); replicas (default 1) of them.
   */
  JobTemplate deployment(KubeObject o) {
    return replicated(o, false);
  }

  /**
   * Kueue (statefulset integration): the pods form one pod group of replicas (default 1) pods whose role is
   * {@code main} (statefulset pod reconciler), so one Workload with one pod set.
   */
  JobTemplate statefulSet(KubeObject o) {
    return replicated(o, true);
  }

  /** replicas (default 1) pods of the template: one Workload of them all ({@code oneGroup}), or one each. */
  private JobTemplate replicated(KubeObject o, boolean oneGroup) {
    Node spec = Tree.get(o.node(), "spec");
    Node template = Tree.get(spec, "template");
    long replicas = p.number(Tree.get(spec, "replicas"), 1);
    if (replicas == 0) {
      return scaledToZero(o);
    }
    return p.template(o, o.name(), o.kind(), List.of(p.podSet(o, "main", oneGroup ? replicas : 1, template,
        o.kind() + " " + o.name())), BatchJobs.list(template), oneGroup ? 1 : (int) replicas);
  }

  /**
   * Kueue (leaderworkerset reconciler podSets): one Workload per replica group (spec.replicas, default 1);
   * with a leader template, pod sets {@code leader} (1) and {@code worker} (size - 1), else one pod set
   * {@code main} of size pods (leaderWorkerTemplate.size, default 1).
   */
  JobTemplate leaderWorkerSet(KubeObject o) {
    Node spec = Tree.get(o.node(), "spec");
    Node lwt = Tree.get(spec, "leaderWorkerTemplate");
    long replicas = p.number(Tree.get(spec, "replicas"), 1);
    if (replicas == 0) {
      return scaledToZero(o);
    }
    long size = p.number(Tree.get(lwt, "size"), 1);
    Node leader = Tree.get(lwt, "leaderTemplate");
    Node worker = Tree.get(lwt, "workerTemplate");
    String what = "LeaderWorkerSet " + o.name();
    List<Tree.Map_> sets = new ArrayList<>();
    List<Node> templates = new ArrayList<>(BatchJobs.list(leader));
    templates.addAll(BatchJobs.list(worker));
    if (leader != null) {
      sets.add(p.podSet(o, "leader", 1, leader, what));
      sets.add(p.podSet(o, "worker", Math.max(size - 1, 0), worker, what));
    } else {
      sets.add(p.podSet(o, "main", size, worker, what));
    }
    return p.template(o, o.name(), o.kind(), sets, templates, (int) replicas);
  }

  private JobTemplate scaledToZero(KubeObject o) {
    p.warnings.add(o.kind() + ":zero", o.location(), o.describe() + " has 0 replicas: no Kueue Workload; ignored");
    return null;
  }
}
