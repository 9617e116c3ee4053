package batchsim.scenarios;

import batchsim.core.model.Taint;
import batchsim.core.model.Toleration;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Binds the Kubernetes shapes that recur all over a scenario (resource maps, taints, tolerations) and
 * remembers every resource name it meets, so the ResourceSpace can list them in order of first
 * appearance in the file.
 */
final class KubeBinder {
  /** Kubernetes qualified names: an optional DNS-subdomain prefix and a name, e.g. nvidia.com/gpu. */
  private static final Pattern RESOURCE_NAME =
      Pattern.compile("([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  private static final List<String> EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

  private final Problems problems;
  private final List<ScalarNode> resourceMentions = new ArrayList<>();

  KubeBinder(Problems problems) {
    this.problems = problems;
  }

  Problems problems() {
    return problems;
  }

  /** Checks and records a resource name; returns false (after a report) when it is malformed. */
  boolean resourceName(ScalarNode name) {
    if (!RESOURCE_NAME.matcher(name.text()).matches()) {
      problems.at(name, "'" + name.text() + "' is not a valid resource name (e.g. cpu, memory, nvidia.com/gpu)");
      return false;
    }
    resourceMentions.add(name);
    return true;
  }

  /** cpu, memory and pods first, then every other resource name in order of first appearance in the file. */
  List<String> resourceNames() {
    List<ScalarNode> byPosition = new ArrayList<>(resourceMentions);
    byPosition.sort(Comparator.comparing(ScalarNode::location));
    Set<String> names = new LinkedHashSet<>(List.of("cpu", "memory", "pods"));
    byPosition.forEach(n -> names.add(n.text()));
    return List.copyOf(names);
  }

  /** A map of resource name to quantity, e.g. {@code {cpu: 500m, memory: 64Gi}}, in file order. */
  List<Spec.Amount> amounts(Node node) {
    List<Spec.Amount> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (!(node instanceof MapNode m)) {
      problems.wrongType(node, "a map of resource name to quantity");
      return out;
    }
    for (MapNode.Entry e : m.entries().values()) {
      if (resourceName(e.key())) {
        Long v = Values.quantity(e.key().text(), e.value(), problems);
        if (v != null) {
          out.add(new Spec.Amount(e.key(), v));
        } else if (e.value().isNull()) {
          problems.at(e.value(), "missing quantity");
        }
      }
    }
    return out;
  }

  List<Taint> taints(List<Node> items) {
    List<Taint> out = new ArrayList<>();
    for (Node item : items) {
      Taint t = taint(Fields.of(item, problems, "key", "value", "effect"));
      if (t != null) {
        out.add(t);
      }
    }
    return List.copyOf(out);
  }

  /** A taint's {@code key}, {@code value} (default empty) and {@code effect} (required); null on error. */
  Taint taint(Fields f) {
    ScalarNode key = f.requiredName("key");
    String effect = effect(f, true);
    return key == null || effect == null ? null : new Taint(key.text(), f.string("value", ""), effect);
  }

  /** An optional effect (null when absent, or after reporting a bad one). */
  String optionalEffect(Fields f) {
    String e = effect(f, false);
    return e == null || e.isEmpty() ? null : e;
  }

  /** Kubernetes toleration rules: Exists takes no value, and an empty key needs Exists. */
  List<Toleration> tolerations(List<Node> items) {
    List<Toleration> out = new ArrayList<>();
    for (Node item : items) {
      Fields f = Fields.of(item, problems, "key", "operator", "value", "effect");
      String key = f.string("key", "");
      String operator = f.string("operator", "Equal");
      String value = f.string("value", "");
      String effect = effect(f, false);
      boolean ok = f.present() && effect != null;
      if (!operator.equals("Equal") && !operator.equals("Exists")) {
        problems.at(f.get("operator"), "'" + operator + "' is not one of Equal, Exists");
        ok = false;
      } else if (operator.equals("Exists") && !value.isEmpty()) {
        problems.at(f.get("value"), "value must be empty when operator is Exists");
        ok = false;
      } else if (operator.equals("Equal") && key.isEmpty() && f.present()) {
        problems.at(f.node(), "a toleration without a key needs operator: Exists");
        ok = false;
      }
      if (ok) {
        out.add(new Toleration(key, operator, value, effect.isEmpty() ? null : effect));
      }
    }
    return List.copyOf(out);
  }

  /** The effect of a taint (required) or toleration (optional: "" matches every effect); null on error. */
  private String effect(Fields f, boolean required) {
    ScalarNode s = Values.scalar(required ? f.required("effect") : f.get("effect"), problems, "a string");
    if (s == null) {
      return required ? null : "";
    }
    if (!EFFECTS.contains(s.text())) {
      problems.at(s, "'" + s.text() + "' is not one of " + String.join(", ", EFFECTS));
      return null;
    }
    return s.text();
  }
}
