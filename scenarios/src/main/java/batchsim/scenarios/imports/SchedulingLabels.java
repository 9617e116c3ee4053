package batchsim.scenarios.imports;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The node label keys some imported object schedules by, which are the only labels that tell imported nodes
 * apart: ResourceFlavors' {@code nodeLabels}, Topology levels (but {@code kubernetes.io/hostname}, which
 * batchsim gives every node itself), Kueue's pod-set topology annotations, and whatever a pod template
 * selects on ({@code nodeSelector}, node affinity expressions) in any job kind.
 */
final class SchedulingLabels {
  static final String HOSTNAME = "kubernetes.io/hostname";
  private static final String TOPOLOGY_ANNOTATION = "kueue.x-k8s.io/podset-";

  private SchedulingLabels() {}

  static Set<String> of(List<KubeObject> objects) {
    Set<String> out = new TreeSet<>();
    for (KubeObject o : objects) {
      if (NodeListReader.handles(o)) {
        continue;
      }
      if (o.group().equals(KueueManifestReader.GROUP) && o.kind().equals("ResourceFlavor")) {
        out.addAll(Tree.entries(o.node(), "spec", "nodeLabels").keySet());
      } else if (o.group().equals(KueueManifestReader.GROUP) && o.kind().equals("Topology")) {
        Tree.items(o.node(), "spec", "levels").forEach(l -> add(out, Tree.text(l, "nodeLabel")));
      } else {
        walk(o.node(), false, out);
      }
    }
    out.remove(HOSTNAME);
    return out;
  }

  /** nodeSelector keys, node affinity expression keys and topology annotations anywhere below {@code n}. */
  private static void walk(Node n, boolean inAffinity, Set<String> out) {
    if (n instanceof ListNode l) {
      l.items().forEach(i -> walk(i, inAffinity, out));
    } else if (n instanceof MapNode m) {
      if (inAffinity && Tree.text(m, "key") != null && m.get("operator") != null) {
        add(out, Tree.text(m, "key"));
      }
      m.entries().forEach((k, e) -> {
        if (k.equals("nodeSelector") && e.value() instanceof MapNode sel) {
          out.addAll(sel.entries().keySet());
        } else if (k.startsWith(TOPOLOGY_ANNOTATION) && k.endsWith("-topology") && !k.contains("unconstrained")) {
          add(out, Tree.text(e.value()));
        } else {
          walk(e.value(), inAffinity || k.equals("nodeAffinity"), out);
        }
      });
    }
  }

  private static void add(Set<String> out, String label) {
    if (label != null && !label.isEmpty()) {
      out.add(label);
    }
  }
}
