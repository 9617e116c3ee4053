package batchsim.scenarios;

import batchsim.core.model.AdmissionMode;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FungibilityPolicy;
import batchsim.core.model.FungibilityPreference;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds cohorts, ClusterQueues, LocalQueues and priority classes, with the checks Kueue's webhooks make
 * on a single object (those that need other objects are the validator's).
 */
final class QueueBinder {
  private static final double DEFAULT_WEIGHT = 1.0;

  private final Problems problems;
  private final KubeBinder kube;

  QueueBinder(KubeBinder kube) {
    this.kube = kube;
    this.problems = kube.problems();
  }

  List<Spec.Cohort> cohorts(List<Node> items) {
    List<Spec.Cohort> out = new ArrayList<>();
    for (Node n : items) {
      out.add(cohort(n));
    }
    return out;
  }

  /** One Cohort object (a timeline update binds its patch the same way: every field but name optional). */
  Spec.Cohort cohort(Node n) {
    Fields f = Fields.of(n, problems, "name", "parentName", "fairSharing", "resourceGroups");
    ScalarNode name = f.requiredName("name");
    ScalarNode parent = f.optionalName("parentName");
    List<Spec.ResourceGroup> groups = resourceGroups(f, parent != null, "a parentName");
    return new Spec.Cohort(name, parent, groups, weight(f));
  }

  List<Spec.ClusterQueue> clusterQueues(List<Node> items) {
    List<Spec.ClusterQueue> out = new ArrayList<>();
    for (Node n : items) {
      out.add(clusterQueue(n));
    }
    return out;
  }

  /**
   * One ClusterQueue; {@code extraKeys} are further keys the caller reads itself (a timeline update's
   * stopPolicy). A patch binds the same way: every field but name is optional.
   */
  Spec.ClusterQueue clusterQueue(Node n, String... extraKeys) {
    List<String> keys = new ArrayList<>(List.of("name", "cohortName", "cohort", "queueingStrategy", "preemption",
        "flavorFungibility", "fairSharing", "admissionChecks", "admissionChecksStrategy", "resourceGroups",
        "namespaceSelector", "admissionScope"));
    keys.addAll(List.of(extraKeys));
    Fields f = Fields.of(n, problems, keys.toArray(new String[0]));
    ScalarNode name = f.requiredName("name");
    // v1beta2 calls it cohortName; v1beta1 manifests say cohort.
    ScalarNode cohort = f.atMostOne("cohortName", "cohort")
        ? f.optionalName(f.has("cohort") ? "cohort" : "cohortName") : null;
    Node selector = f.get("namespaceSelector");
    if (selector != null && !(selector instanceof MapNode m && m.entries().isEmpty())) {
      problems.at(selector, "batchsim has no namespaces: namespaceSelector must be {} or left out");
    }
    // A patch that leaves cohortName out may still borrow: its limits are checked against the merged object.
    boolean mayHaveParent = cohort != null || extraKeys.length > 0;
    List<Spec.ResourceGroup> groups = resourceGroups(f, mayHaveParent, "a cohortName");
    List<Spec.CheckRule> rules = checkRules(f, groups, extraKeys.length > 0);
    List<String> checks = rules.stream().map(r -> r.name().text()).toList();
    return new Spec.ClusterQueue(name, cohort, groups,
        f.enumeration("queueingStrategy", QueueingStrategy.class, QueueingStrategy.BEST_EFFORT_FIFO),
        preemption(f.map("preemption", "withinClusterQueue", "reclaimWithinCohort", "borrowWithinCohort")),
        fungibility(f.map("flavorFungibility", "whenCanBorrow", "whenCanPreempt", "preference")),
        weight(f), checks, rules,
        f.map("admissionScope", "admissionMode").enumeration("admissionMode", AdmissionMode.class, null));
  }

  /**
   * {@code admissionChecks: [name]} or (exclusive, as Kueue's v1beta1 validation says) {@code
   * admissionChecksStrategy: {admissionChecks: [{name, onFlavors}]}}; onFlavors must be flavors of the
   * queue's resource groups (Kueue's ClusterQueue webhook; not checked for a patch without resourceGroups).
   */
  private List<Spec.CheckRule> checkRules(Fields f, List<Spec.ResourceGroup> groups, boolean patch) {
    List<Spec.CheckRule> out = new ArrayList<>();
    if (!f.atMostOne("admissionChecks", "admissionChecksStrategy")) {
      return out;
    }
    f.stringList("admissionChecks").forEach(s -> out.add(new Spec.CheckRule(s, List.of())));
    List<String> flavors = new ArrayList<>();
    groups.forEach(g -> g.flavors().forEach(fq -> flavors.add(fq.flavor().text())));
    Map<String, ScalarNode> seen = new LinkedHashMap<>();
    for (Node n : f.map("admissionChecksStrategy", "admissionChecks").requiredList("admissionChecks", true)) {
      Fields r = Fields.of(n, problems, "name", "onFlavors");
      ScalarNode check = r.requiredName("name");
      if (check == null) {
        continue;
      }
      if (seen.put(check.text(), check) != null) {
        problems.at(check, "admission check '" + check.text() + "' is listed twice");
      }
      List<ScalarNode> on = r.stringList("onFlavors");
      for (ScalarNode flavor : on) {
        if (!flavors.contains(flavor.text()) && !(patch && groups.isEmpty())) {
          problems.at(flavor, "onFlavors: '" + flavor.text() + "' is not a flavor of this ClusterQueue's "
              + "resourceGroups" + (flavors.isEmpty() ? "" : " (its flavors: " + String.join(", ", flavors) + ")"));
        }
      }
      out.add(new Spec.CheckRule(check, List.copyOf(on)));
    }
    return out;
  }

  List<Spec.LocalQueue> localQueues(List<Node> items) {
    List<Spec.LocalQueue> out = new ArrayList<>();
    for (Node n : items) {
      out.add(localQueue(n));
    }
    return out;
  }

  Spec.LocalQueue localQueue(Node n) {
    Fields f = Fields.of(n, problems, "name", "namespace", "clusterQueue", "fairSharing");
    ScalarNode name = f.requiredName("name");
    ScalarNode namespace = f.optionalName("namespace");
    ScalarNode cq = f.requiredName("clusterQueue");
    String full = name == null ? null : namespace == null ? name.text() : namespace.text() + "/" + name.text();
    return new Spec.LocalQueue(name, full, cq, weight(f));
  }

  List<Spec.PriorityClass> priorityClasses(List<Node> items) {
    List<Spec.PriorityClass> out = new ArrayList<>();
    for (Node n : items) {
      Fields f = Fields.of(n, problems, "name", "value");
      ScalarNode name = f.requiredName("name");
      Integer value = Values.int32(f.required("value"), problems, Integer.MIN_VALUE);
      out.add(new Spec.PriorityClass(name, value == null ? 0 : value));
    }
    return out;
  }

  private double weight(Fields f) {
    return f.map("fairSharing", "weight").decimal("weight", DEFAULT_WEIGHT, 0);
  }

  /**
   * Kueue's resource-group rules for one ClusterQueue or Cohort: a flavor appears in one group only, a
   * resource is covered by one group only, and every flavor of a group lists exactly the covered
   * resources. Limits only make sense with somewhere to borrow from or lend to.
   */
  private List<Spec.ResourceGroup> resourceGroups(Fields owner, boolean hasParent, String parentField) {
    List<Spec.ResourceGroup> out = new ArrayList<>();
    Map<String, Integer> flavorGroup = new LinkedHashMap<>();
    Map<String, Integer> resourceGroup = new LinkedHashMap<>();
    List<Node> items = owner.list("resourceGroups");
    for (int g = 0; g < items.size(); g++) {
      Fields f = Fields.of(items.get(g), problems, "coveredResources", "flavors");
      f.requiredList("coveredResources", true);
      List<ScalarNode> covered = new ArrayList<>();
      for (ScalarNode r : f.stringList("coveredResources")) {
        if (!kube.resourceName(r)) {
          continue;
        }
        Integer other = resourceGroup.putIfAbsent(r.text(), g);
        if (other != null && other == g) {
          problems.at(r, "resource '" + r.text() + "' is listed twice");
        } else if (other != null) {
          problems.at(r, "resource '" + r.text() + "' is already covered by resourceGroups[" + other + "]");
        } else {
          covered.add(r);
        }
      }
      List<Spec.FlavorQuotas> flavors = new ArrayList<>();
      for (Node fn : f.requiredList("flavors", true)) {
        Spec.FlavorQuotas fq = flavorQuotas(fn, covered, hasParent, parentField);
        if (fq.flavor() != null) {
          Integer other = flavorGroup.putIfAbsent(fq.flavor().text(), g);
          if (other != null) {
            problems.at(fq.flavor(), "flavor '" + fq.flavor().text() + "' is already used by "
                + (other == g ? "this resource group" : "resourceGroups[" + other + "]"));
          }
          flavors.add(fq); // without a name it was reported, and checks by flavor name cannot use it
        }
      }
      out.add(new Spec.ResourceGroup(items.get(g), List.copyOf(covered), List.copyOf(flavors)));
    }
    return out;
  }

  private Spec.FlavorQuotas flavorQuotas(Node n, List<ScalarNode> covered, boolean hasParent, String parentField) {
    Fields f = Fields.of(n, problems, "name", "resources");
    ScalarNode flavor = f.requiredName("name");
    List<String> coveredNames = covered.stream().map(ScalarNode::text).toList();
    Map<String, Spec.Quota> quotas = new LinkedHashMap<>();
    List<Node> items = f.requiredList("resources", true);
    for (Node qn : items) {
      Fields q = Fields.of(qn, problems, "name", "nominalQuota", "borrowingLimit", "lendingLimit");
      ScalarNode resource = q.requiredName("name");
      if (resource == null || !kube.resourceName(resource)) {
        continue;
      }
      String r = resource.text();
      Long nominal = Values.quantity(r, q.required("nominalQuota"), problems);
      Long borrowing = limit(q, "borrowingLimit", r, hasParent, parentField);
      Long lending = limit(q, "lendingLimit", r, hasParent, parentField);
      if (nominal != null && lending != null && lending > nominal) {
        problems.at(q.get("lendingLimit"), "lendingLimit " + q.get("lendingLimit").describe()
            + " exceeds nominalQuota " + q.get("nominalQuota").describe());
      }
      if (!covered.isEmpty() && !coveredNames.contains(r)) {
        problems.at(resource, "resource '" + r + "' is not in this group's coveredResources ("
            + String.join(", ", coveredNames) + ")");
      } else if (quotas.containsKey(r)) {
        problems.at(resource, "resource '" + r + "' is listed twice");
      } else if (nominal != null) {
        quotas.put(r, new Spec.Quota(resource,
            new QuotaSpec(nominal, orUnlimited(borrowing), orUnlimited(lending))));
      }
    }
    if (!items.isEmpty() && quotas.size() == items.size()) {
      // Only when every listed quota bound cleanly, so one typo does not also read as a missing resource.
      for (String r : coveredNames) {
        if (!quotas.containsKey(r)) {
          problems.at(f.get("resources"), "no quota for covered resource '" + r
              + "' (every flavor of a group lists exactly the coveredResources)");
        }
      }
    }
    return new Spec.FlavorQuotas(flavor, List.copyOf(quotas.values()));
  }

  private Long limit(Fields q, String key, String resource, boolean hasParent, String parentField) {
    Long v = Values.quantity(resource, q.get(key), problems);
    if (v != null && !hasParent) {
      problems.at(q.get(key), key + " needs " + parentField + " (there is nothing to borrow from or lend to)");
      return null;
    }
    return v;
  }

  private static long orUnlimited(Long limit) {
    return limit == null ? QuotaSpec.UNLIMITED : limit;
  }

  /** Kueue's preemption policies, each restricted to the values its API field accepts. */
  PreemptionSpec preemption(Fields f) {
    PreemptionPolicy within = policy(f, "withinClusterQueue", PreemptionPolicy.NEVER,
        PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY);
    PreemptionPolicy reclaim = policy(f, "reclaimWithinCohort", PreemptionPolicy.NEVER,
        PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY);
    Fields b = f.map("borrowWithinCohort", "policy", "maxPriorityThreshold");
    PreemptionPolicy borrow = policy(b, "policy", PreemptionPolicy.NEVER, PreemptionPolicy.LOWER_PRIORITY);
    Integer threshold = Values.int32(b.get("maxPriorityThreshold"), problems, Integer.MIN_VALUE);
    if (reclaim == PreemptionPolicy.NEVER && borrow != PreemptionPolicy.NEVER) {
      problems.at(b.get("policy"), "borrowWithinCohort.policy must be Never when reclaimWithinCohort is Never");
    }
    return new PreemptionSpec(within, reclaim, borrow, threshold);
  }

  /** A policy from {@code allowed}; the first allowed value is the default. */
  private PreemptionPolicy policy(Fields f, String key, PreemptionPolicy... allowed) {
    PreemptionPolicy p = f.enumeration(key, PreemptionPolicy.class, allowed[0]);
    if (!List.of(allowed).contains(p)) {
      List<String> names = new ArrayList<>();
      for (PreemptionPolicy a : allowed) {
        names.add(a.kueueName());
      }
      problems.at(f.get(key), "'" + p.kueueName() + "' is not one of " + String.join(", ", names));
      return allowed[0];
    }
    return p;
  }

  private FlavorFungibility fungibility(Fields f) {
    FlavorFungibility d = FlavorFungibility.DEFAULT;
    return new FlavorFungibility(
        fungibilityPolicy(f, "whenCanBorrow", "Borrow", d.whenCanBorrow()),
        fungibilityPolicy(f, "whenCanPreempt", "Preempt", d.whenCanPreempt()),
        f.enumeration("preference", FungibilityPreference.class, d.preference()));
  }

  /** v1beta2 spellings, plus the v1beta1 one ({@code Borrow} / {@code Preempt}) for MayStopSearch. */
  private FungibilityPolicy fungibilityPolicy(Fields f, String key, String v1beta1, FungibilityPolicy dflt) {
    ScalarNode s = Values.scalar(f.get(key), problems, "a string");
    if (s == null) {
      return dflt;
    }
    if (s.text().equals(v1beta1)) {
      return FungibilityPolicy.MAY_STOP_SEARCH;
    }
    for (FungibilityPolicy p : FungibilityPolicy.values()) {
      if (p.kueueName().equals(s.text())) {
        return p;
      }
    }
    problems.at(s, "'" + s.text() + "' is not one of MayStopSearch, TryNextFlavor (v1beta1: " + v1beta1 + ")");
    return dflt;
  }
}
