package batchsim.core.world;

import batchsim.core.cluster.ClusterState;
import batchsim.core.cluster.PodBinder;
import batchsim.core.engine.EventLoop;
import batchsim.core.metrics.Recorder;
import batchsim.core.model.SimulationSpec;

/**
 * What an admission engine gets from the world it runs in: the scenario, the clock, the nodes with the
 * kube-scheduler emulation, node changes (for autoscalers), and the books. The recorder and the capacity
 * accounting exist once the engine has said which queues it reports, so an engine reads them only while the
 * run goes, not in its constructor.
 */
public final class WorldContext {
  private final SimulationSpec spec;
  private final EventLoop loop;
  private final ClusterState cluster;
  private final PodBinder binder;
  Nodes nodes;
  Recorder recorder;
  CapacityAccounting capacity;
  WorkloadSink workloads;

  WorldContext(SimulationSpec spec, EventLoop loop, ClusterState cluster, PodBinder binder) {
    this.spec = spec;
    this.loop = loop;
    this.cluster = cluster;
    this.binder = binder;
  }

  public SimulationSpec spec() {
    return spec;
  }

  public EventLoop loop() {
    return loop;
  }

  public long now() {
    return loop.now();
  }

  /** The cluster's nodes (and, for the kube-scheduler emulation, what is bound where). */
  public ClusterState cluster() {
    return cluster;
  }

  /** The kube-scheduler emulation: binds pods of admitted workloads to nodes. */
  public PodBinder binder() {
    return binder;
  }

  /** Adds and removes nodes as the timeline does (autoscalers). */
  public Nodes nodes() {
    return nodes;
  }

  public Recorder recorder() {
    return recorder;
  }

  public CapacityAccounting capacity() {
    return capacity;
  }

  /** Where the engine sends each workload's record: when it ends, and the live ones' at the end of the run. */
  public WorkloadSink workloads() {
    return workloads;
  }
}
