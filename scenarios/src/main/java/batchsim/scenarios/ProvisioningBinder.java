package batchsim.scenarios;

import batchsim.core.model.AdmissionCheckSpec;
import batchsim.core.model.AutoscalingSpec;
import batchsim.core.model.LongDistribution;
import batchsim.core.model.ProvisioningSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binds {@code admissionChecks:} (Kueue AdmissionChecks backed by the ProvisioningRequest controller) and
 * {@code autoscaling:} (node pools a cluster autoscaler grows and shrinks), and checks that every
 * ClusterQueue's {@code admissionChecks} names a defined check.
 */
final class ProvisioningBinder {
  private final Problems problems;
  private final WorkloadBinder distributions;

  /** The bound parts; {@link #applyTo} puts them into a SimulationSpec. */
  record Provisioning(List<AdmissionCheckSpec> checks, List<AutoscalingSpec> autoscaling) {
    SimulationSpec applyTo(SimulationSpec s) {
      return checks.isEmpty() && autoscaling.isEmpty() ? s : s.withProvisioning(checks, autoscaling);
    }
  }

  private ProvisioningBinder(Problems problems) {
    this.problems = problems;
    this.distributions = new WorkloadBinder(new KubeBinder(problems));
  }

  static Provisioning bind(Node root, Spec.Scenario scenario, Problems problems) {
    return new ProvisioningBinder(problems).bind(root, scenario);
  }

  private Provisioning bind(Node root, Spec.Scenario scenario) {
    List<AdmissionCheckSpec> checks = new ArrayList<>();
    List<AutoscalingSpec> autoscaling = new ArrayList<>();
    Set<String> pools = new LinkedHashSet<>();
    scenario.nodePools().forEach(p -> pools.add(p.name().text()));
    Map<String, ScalarNode> defined = new LinkedHashMap<>();
    MapNode m = root instanceof MapNode map ? map : null;
    for (Node n : Fields.items(m == null ? null : m.get("admissionChecks"), problems)) {
      Fields f = Fields.of(n, problems, "name", "controllerName", "provisioningRequest");
      ScalarNode name = f.requiredName("name");
      if (name == null) {
        continue;
      }
      if (defined.put(name.text(), name) != null) {
        problems.at(name, "duplicate admission check name '" + name.text() + "'");
      }
      ProvisioningSpec p = provisioning(f.map("provisioningRequest", "class", "pool", "delay", "failureProbability",
          "bookingExpiry", "capacityRevokedProbability", "retry", "managedResources"), pools, scenario);
      checks.add(controller(f, name.text(), p));
    }
    for (Node n : Fields.items(m == null ? null : m.get("autoscaling"), problems)) {
      Fields f = Fields.of(n, problems, "pool", "min", "max", "scaleDownDelay");
      ScalarNode pool = f.reference("pool", pools, "node pool");
      int min = f.int32("min", 0, 0);
      int max = f.int32("max", Integer.MAX_VALUE, 0);
      if (max < min) {
        problems.at(f.get("max"), "max (" + max + ") must be >= min (" + min + ")");
      }
      if (pool != null) {
        autoscaling.add(new AutoscalingSpec(pool.text(), min, max, f.duration("scaleDownDelay", 600_000)));
      }
    }
    for (Spec.ClusterQueue cq : scenario.clusterQueues()) {
      for (Spec.CheckRule rule : cq.checkRules()) {
        String c = rule.name().text();
        if (!defined.containsKey(c)) {
          problems.at(rule.name(), "ClusterQueue " + cq.name().text() + " names admission check '" + c
              + "', which admissionChecks does not define" + (defined.isEmpty() ? "" : " (known: "
              + String.join(", ", defined.keySet()) + ")"));
        }
      }
    }
    return new Provisioning(checks, autoscaling);
  }

  /**
   * The check with its {@code controllerName}: MultiKueue's ({@code kueue.x-k8s.io/multikueue}, which takes no
   * provisioningRequest), the ProvisioningRequest controller's, or another controller's (absent: provisioning
   * when a provisioningRequest is given, else an external controller the timeline answers for).
   */
  private AdmissionCheckSpec controller(Fields f, String name, ProvisioningSpec p) {
    String controller = f.string("controllerName", null);
    if (controller == null) {
      return new AdmissionCheckSpec(name, p);
    }
    boolean mk = controller.equals(batchsim.core.model.MultiKueueSpec.CONTROLLER_NAME);
    if (p != null && !controller.equals(AdmissionCheckSpec.PROVISIONING)) {
      problems.at(f.get("controllerName"), "a check with a provisioningRequest is the "
          + AdmissionCheckSpec.PROVISIONING + " controller's, not " + controller);
    }
    return new AdmissionCheckSpec(name, mk ? null : p, controller);
  }

  private ProvisioningSpec provisioning(Fields f, Set<String> pools, Spec.Scenario scenario) {
    if (!f.present()) {
      return null;
    }
    String cls = f.string("class", ProvisioningSpec.ATOMIC_SCALE_UP);
    if (!cls.equals(ProvisioningSpec.ATOMIC_SCALE_UP) && !cls.equals(ProvisioningSpec.CHECK_CAPACITY)) {
      problems.at(f.get("class"), "'" + cls + "' is not one of " + ProvisioningSpec.CHECK_CAPACITY + ", "
          + ProvisioningSpec.ATOMIC_SCALE_UP);
    }
    ScalarNode pool = f.reference("pool", pools, "node pool");
    LongDistribution delay = f.has("delay") ? distributions.runtime(f.get("delay")) : LongDistribution.constant(0);
    double failure = probability(f, "failureProbability");
    double revoked = probability(f, "capacityRevokedProbability");
    Fields r = f.map("retry", "backoffLimitCount", "backoffBaseSeconds", "backoffMaxSeconds");
    List<String> managed = new ArrayList<>();
    for (ScalarNode s : f.stringList("managedResources")) {
      if (!scenario.resourceNames().contains(s.text())) {
        problems.at(s, "resource '" + s.text() + "' appears nowhere else in the scenario");
      }
      managed.add(s.text());
    }
    return new ProvisioningSpec(cls, delay == null ? LongDistribution.constant(0) : delay, failure,
        f.duration("bookingExpiry", 0), revoked, r.int32("backoffLimitCount", 3, 0),
        r.integer("backoffBaseSeconds", 60, 0) * 1000, r.integer("backoffMaxSeconds", 1800, 0) * 1000,
        List.copyOf(managed), pool == null ? "" : pool.text());
  }

  private double probability(Fields f, String key) {
    double p = f.decimal(key, 0, 0);
    if (p > 1) {
      problems.at(f.get(key), "must be a probability between 0 and 1");
      return 1;
    }
    return p;
  }


}
