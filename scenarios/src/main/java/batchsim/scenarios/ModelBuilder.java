package batchsim.scenarios;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PriorityClassSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.Reservation;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.core.model.WorkloadSpec;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.WorkloadClass;
import batchsim.workloads.Distribution;
import batchsim.workloads.WorkloadList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a validated {@link Spec.Scenario} into the engine's {@link SimulationSpec}. Only called when
 * binding and validation found no problem, so every reference resolves and no field is null. Lists keep
 * file order; cohorts named only by a ClusterQueue are appended, in order of first mention, as implicit
 * root cohorts without quota.
 */
final class ModelBuilder {
  /** The name of the single source holding all of {@code workloads.list}. */
  static final String LISTED_SOURCE = "workloads.list";

  private final Spec.Scenario s;
  private final ResourceSpace space;
  private final Map<String, Integer> priorityValues = new LinkedHashMap<>();

  private ModelBuilder(Spec.Scenario s) {
    this.s = s;
    this.space = ResourceSpace.of(s.resourceNames());
    s.priorityClasses().forEach(pc -> priorityValues.put(pc.name().text(), pc.value()));
  }

  static SimulationSpec build(Spec.Scenario scenario) {
    return new ModelBuilder(scenario).build();
  }

  private SimulationSpec build() {
    List<NodePoolSpec> pools = new ArrayList<>();
    for (Spec.NodePool p : s.nodePools()) {
      pools.add(new NodePoolSpec(p.name().text(), p.count(), p.labels(), p.taints(), vector(p.allocatable())));
    }
    List<ResourceFlavorSpec> flavors = s.flavors().stream().map(Spec.Flavor::spec).toList();
    List<ClusterQueueSpec> cqs = new ArrayList<>();
    for (Spec.ClusterQueue cq : s.clusterQueues()) {
      cqs.add(clusterQueue(cq));
    }
    List<LocalQueueSpec> lqs = s.localQueues().stream()
        .map(lq -> new LocalQueueSpec(lq.fullName(), lq.clusterQueue().text(), lq.fairWeight())).toList();
    List<PriorityClassSpec> priorities = s.priorityClasses().stream()
        .map(pc -> new PriorityClassSpec(pc.name().text(), pc.value())).toList();
    return new SimulationSpec(s.name().text(), s.seed(), s.horizonMs(), space, List.copyOf(pools), flavors,
        cohorts(), List.copyOf(cqs), lqs, priorities, s.kueue(), s.podScheduling(), sources(),
        s.sampleIntervalMs(), List.of(), List.of(), List.of(), s.topologies());
  }

  private List<CohortSpec> cohorts() {
    List<CohortSpec> out = new ArrayList<>();
    Set<String> defined = new LinkedHashSet<>();
    for (Spec.Cohort c : s.cohorts()) {
      out.add(cohort(c));
      defined.add(c.name().text());
    }
    for (Spec.ClusterQueue cq : s.clusterQueues()) {
      if (cq.cohort() != null && defined.add(cq.cohort().text())) {
        out.add(CohortSpec.implicit(cq.cohort().text()));
      }
    }
    return List.copyOf(out);
  }

  static ClusterQueueSpec clusterQueue(Spec.ClusterQueue cq) {
    return new ClusterQueueSpec(cq.name().text(), text(cq.cohort()), groups(cq.resourceGroups()),
        cq.queueingStrategy(), cq.preemption(), cq.fungibility(), cq.fairWeight(), cq.admissionChecks(),
        checkFlavors(cq.checkRules()), cq.admissionMode());
  }

  /** The onFlavors of the admissionChecksStrategy rules that have them. */
  private static Map<String, List<String>> checkFlavors(List<Spec.CheckRule> rules) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    rules.stream().filter(r -> !r.onFlavors().isEmpty())
        .forEach(r -> out.put(r.name().text(), r.onFlavors().stream().map(ScalarNode::text).toList()));
    return out;
  }

  static CohortSpec cohort(Spec.Cohort c) {
    return new CohortSpec(c.name().text(), text(c.parent()), groups(c.resourceGroups()), c.fairWeight());
  }

  private static List<ResourceGroupSpec> groups(List<Spec.ResourceGroup> groups) {
    List<ResourceGroupSpec> out = new ArrayList<>();
    for (Spec.ResourceGroup g : groups) {
      List<FlavorQuotaSpec> flavors = new ArrayList<>();
      for (Spec.FlavorQuotas fq : g.flavors()) {
        Map<String, QuotaSpec> quotas = new LinkedHashMap<>();
        fq.resources().forEach(q -> quotas.put(q.resource().text(), q.quota()));
        flavors.add(new FlavorQuotaSpec(fq.flavor().text(), Collections.unmodifiableMap(quotas)));
      }
      out.add(new ResourceGroupSpec(g.coveredResources().stream().map(ScalarNode::text).toList(),
          List.copyOf(flavors)));
    }
    return List.copyOf(out);
  }

  private List<WorkloadSourceSpec> sources() {
    List<WorkloadSourceSpec> out = new ArrayList<>();
    for (Spec.WorkloadClass wc : s.workloadClasses()) {
      out.add(new WorkloadClass(wc.name().text(), wc.queue().text(), priority(wc.priority()),
          text(wc.priority().priorityClass()), podSets(wc.podSets()), wc.runtime(), wc.arrival(), wc.startMs(),
          wc.count(), wc.untilMs(), wc.terminationGraceMs()));
    }
    if (!s.listedWorkloads().isEmpty()) {
      List<WorkloadList.Entry> listed = new ArrayList<>();
      for (Spec.ListedWorkload w : s.listedWorkloads()) {
        Distribution runtime = w.runtime();
        WorkloadSpec ws = new WorkloadSpec(w.name().text(), null, w.queue().text(), w.atMs(), priority(w.priority()),
            text(w.priority().priorityClass()), podSets(w.podSets()),
            runtime instanceof Distribution.Constant c ? c.value() : 0, WorkloadSpec.SCENARIO_GRACE,
            w.eviction() != null ? w.eviction() : reservation(w.reservation()));
        // a fixed runtime of a workload submitted in the run needs no draw
        listed.add(new WorkloadList.Entry(ws, runtime instanceof Distribution.Constant && ws.reservation() == null
            ? null : runtime));
      }
      out.add(new WorkloadList(LISTED_SOURCE, listed));
    }
    for (TraceBinder.Trace t : s.traces()) {
      out.addAll(t.sources(space, priorityValues));
    }
    return List.copyOf(out);
  }

  private static Reservation reservation(Spec.ListedReservation r) {
    if (r == null) {
      return null;
    }
    List<Map<String, String>> flavors = new ArrayList<>();
    r.flavors().forEach(m -> {
      Map<String, String> byName = new LinkedHashMap<>();
      m.forEach((res, f) -> byName.put(res, f.text()));
      flavors.add(byName);
    });
    List<List<String>> nodes = r.nodes().stream().map(l -> l.stream().map(ScalarNode::text).toList()).toList();
    return new Reservation(r.reservedAtMs(), r.admitted(), r.startedAtMs(), flavors, r.counts(), nodes);
  }

  private int priority(Spec.Priority p) {
    return p.priorityClass() == null ? p.value() : priorityValues.get(p.priorityClass().text());
  }

  private List<PodSetSpec> podSets(List<Spec.PodSet> podSets) {
    List<PodSetSpec> out = new ArrayList<>();
    for (Spec.PodSet ps : podSets) {
      out.add(new PodSetSpec(ps.name(), ps.count(), ps.minCount(), vector(ps.requests()), ps.nodeSelector(),
          ps.tolerations(), ps.topology()));
    }
    return List.copyOf(out);
  }

  private Resources vector(List<Spec.Amount> amounts) {
    long[] v = new long[space.size()];
    amounts.forEach(a -> v[space.require(a.resource().text())] = a.value());
    return Resources.wrap(v);
  }

  private static String text(ScalarNode n) {
    return n == null ? null : n.text();
  }
}
