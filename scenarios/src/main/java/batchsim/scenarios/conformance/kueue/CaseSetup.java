package batchsim.scenarios.conformance.kueue;

import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.Workload;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.TopologySpec;
import batchsim.core.model.WorkloadSpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a case document into engine inputs, with the defaults of the case file's header (those of
 * Kueue's test wrappers): BestEffortFIFO, fungibility MayStopSearch/TryNextFlavor, preemption Never,
 * fair weight 1, priority 0, no UID, creation time "unset" unless given. The parts: {@link CaseConfig}
 * (engine settings and resources), {@link ClusterObjects} (flavors, topologies, nodes, admission checks),
 * {@link QuotaTree} (cohorts and ClusterQueues) and {@link CaseWorkloads}.
 */
final class CaseSetup {
  /** The test's "now" in virtual ms; relative case times are offsets from it, so negatives are fine. */
  static final long NOW = 1_000_000_000L;

  final KueueConfig config;
  final ResourceSpace resources;
  final List<ResourceFlavorSpec> flavors;
  /** [TAS] The Topology objects by name; empty when the case has none. */
  final Map<String, TopologySpec> topologies;
  private final ClusterObjects cluster;
  private final QuotaTree quota;
  private final CaseWorkloads workloads;

  CaseSetup(JsonNode spec) {
    this.config = CaseConfig.read(spec);
    this.resources = CaseConfig.resources(spec);
    this.cluster = new ClusterObjects(spec, resources);
    this.flavors = cluster.flavors;
    this.topologies = cluster.topologies;
    this.quota = new QuotaTree(spec, cluster.admissionChecks);
    this.workloads = new CaseWorkloads(spec, resources, cluster, quota);
  }

  KueueEngine newEngine() {
    try {
      KueueEngine engine = new KueueEngine(config, resources, flavors, quota.cohorts, quota.queues, () -> NOW);
      if (cluster.usesTas()) {
        engine.configureTopologies(new ArrayList<>(topologies.values()), cluster.nodes);
      }
      return engine;
    } catch (IllegalArgumentException e) {
      throw CaseException.invalid(e.getMessage());
    }
  }

  /** Puts every {@code admitted} workload in the cache holding quota with its given flavors. */
  Map<String, Workload> admit(KueueEngine engine) {
    return workloads.admit(engine);
  }

  /** Queues every {@code pending} workload in its ClusterQueue; the heap orders them. */
  Map<String, Workload> submit(KueueEngine engine, Map<String, Workload> existing) {
    return workloads.submit(engine, existing);
  }

  /** A workload that is neither admitted nor pending here (an incoming one): no admission check states. */
  WorkloadSpec workloadSpec(JsonNode w, String id, String cq) {
    return workloads.workloadSpec(w, id, cq);
  }

  String requireQueue(String name) {
    return quota.requireQueue(name);
  }
}
