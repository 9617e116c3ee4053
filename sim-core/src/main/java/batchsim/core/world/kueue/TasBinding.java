package batchsim.core.world.kueue;

import batchsim.core.cluster.ClusterState;
import batchsim.core.cluster.Node;
import batchsim.core.cluster.PodBinder;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.tas.Domain;
import batchsim.core.kueue.tas.TasFlavorSnapshot;
import batchsim.core.kueue.tas.TasNode;
import batchsim.core.kueue.tas.TasPlacement;
import batchsim.core.metrics.TasStats;
import batchsim.core.model.Quantity;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.SimulationSpec;
import batchsim.core.world.SampleSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The simulation side of Topology Aware Scheduling: feeds the cluster's nodes and non-TAS pods to Kueue's
 * topology trees, binds the pods of TAS workloads to exactly the nodes of their topology assignment
 * (Kueue's topology ungater gives each pod its domain as node selector), rebinds after a node replacement,
 * and measures what users ask for (kueue#10505): per-domain usage, whole free domains per level, the
 * largest single-domain request that would fit, and time to admission of TAS vs non-TAS workloads.
 */
final class TasBinding implements SampleSource {
  private final SimulationSpec spec;
  private final ClusterState cluster;
  private final PodBinder binder;
  private final KueueEngine kueue;
  private final int nRes;
  private final Map<String, Integer> nodeIndex = new HashMap<>();
  private boolean enabled;
  /** Per snapshot: the probe pod (one unit of its main resource, plus pods: 1) and that resource. */
  private final List<long[]> probes = new ArrayList<>();
  private final List<Integer> probeResource = new ArrayList<>();
  /** The domains with a usage column, fixed when the columns are made (nodes added later add none). */
  private final List<List<Domain>> columnDomains = new ArrayList<>();
  private final Histogram tasWait = new Histogram(3);
  private final Histogram nonTasWait = new Histogram(3);

  /** Builds the topology trees from the cluster's nodes and starts feeding them non-TAS pods. */
  TasBinding(SimulationSpec spec, ClusterState cluster, PodBinder binder, KueueEngine kueue) {
    this.spec = spec;
    this.cluster = cluster;
    this.binder = binder;
    this.kueue = kueue;
    this.nRes = spec.resources().size();
    boolean anyTasFlavor = spec.flavors().stream().anyMatch(f -> f.topologyName() != null);
    if (!anyTasFlavor) {
      return;
    }
    List<TasNode> nodes = new ArrayList<>();
    for (Node n : cluster.nodes()) {
      nodes.add(tasNode(n));
    }
    kueue.configureTopologies(spec.topologies(), nodes);
    binder.setNodeListener((owner, node, req, sign, pinned) -> {
      if (!pinned) { // pods placed by a topology assignment are TAS usage already
        kueue.podOnNode((Workload) owner, node.name(), req, sign);
      }
    });
    enabled = kueue.tasEnabled();
    for (TasFlavorSnapshot s : kueue.topologySnapshots()) {
      int r = mainResource(s);
      long[] probe = new long[nRes];
      probe[r] = ResourceSpace.CPU.equals(spec.resources().name(r)) ? 1000 : 1;
      int pods = spec.resources().indexOf(ResourceSpace.PODS);
      if (pods >= 0) {
        probe[pods] += 1;
      }
      probes.add(probe);
      probeResource.add(r);
    }
  }

  TasNode tasNode(Node n) {
    long[] alloc = new long[nRes];
    for (int r = 0; r < nRes; r++) {
      alloc[r] = n.allocatable(r);
    }
    return new TasNode(n.name(), n.labels(), n.taints(), Resources.wrap(alloc));
  }

  /**
   * The resource whose free units the fragmentation metrics count: the first extended resource (e.g.
   * nvidia.com/gpu) the flavor's nodes have, else cpu (in cores).
   */
  private int mainResource(TasFlavorSnapshot s) {
    ResourceSpace res = spec.resources();
    for (int r = 0; r < nRes; r++) {
      String name = res.name(r);
      if (name.equals(ResourceSpace.CPU) || name.equals(ResourceSpace.PODS) || Quantity.isBytes(name)) {
        continue;
      }
      for (Domain root : s.domains(0)) {
        if (s.allocatable(root, r) > 0) {
          return r;
        }
      }
    }
    return Math.max(0, res.indexOf(ResourceSpace.CPU));
  }

  // ------------------------------------------------------------------ binding

  /**
   * Pins the pods of a TAS workload to the nodes of its topology assignment. Pods already on an assigned
   * node keep it (a node replacement moves only the failed node's pods); returns false for a workload
   * without a topology assignment (the default kube-scheduler path).
   */
  boolean pin(Workload w, PodBinder.Pods pods) {
    if (!enabled || !kueue.hasTopologyAssignment(w)) {
      return false;
    }
    List<TasPlacement> placement = kueue.topologyPlacement(w);
    int[][] pins = new int[pods.total()][];
    for (TasPlacement p : placement) {
      List<int[]> slotNodes = new ArrayList<>();
      int[] left = new int[p.slots().size()];
      for (int k = 0; k < left.length; k++) {
        slotNodes.add(indices(p.slots().get(k).nodes()));
        left[k] = p.slots().get(k).count();
      }
      List<Integer> unplaced = new ArrayList<>();
      for (int i = 0; i < pods.total(); i++) {
        if (PodBinder.podSetOf(pods, i) != p.podSet()) {
          continue;
        }
        int node = PodBinder.nodeOf(pods, i);
        int slot = node < 0 ? -1 : slotOf(slotNodes, left, node);
        if (slot >= 0) {
          pins[i] = slotNodes.get(slot);
          left[slot]--;
        } else {
          unplaced.add(i);
        }
      }
      int k = 0;
      for (int i : unplaced) {
        while (k < left.length && left[k] == 0) {
          k++;
        }
        if (k == left.length) {
          break;
        }
        pins[i] = slotNodes.get(k);
        left[k]--;
      }
    }
    binder.pin(w, pods, pins);
    return true;
  }

  private static int slotOf(List<int[]> slotNodes, int[] left, int node) {
    for (int k = 0; k < left.length; k++) {
      if (left[k] > 0) {
        for (int n : slotNodes.get(k)) {
          if (n == node) {
            return k;
          }
        }
      }
    }
    return -1;
  }

  private int[] indices(List<String> names) {
    if (nodeIndex.size() != cluster.nodes().size()) {
      for (Node n : cluster.nodes()) {
        nodeIndex.put(n.name(), n.index());
      }
    }
    int[] out = new int[names.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = nodeIndex.get(names.get(i));
    }
    return out;
  }

  /** First quota reservation: time to admission, split by whether the workload got a topology assignment. */
  void admitted(Workload w, long firstWaitMs) {
    if (enabled && firstWaitMs >= 0) {
      (kueue.hasTopologyAssignment(w) ? tasWait : nonTasWait).recordValue(firstWaitMs);
    }
  }

  // ------------------------------------------------------------------ metrics

  /**
   * Time-series columns per TAS flavor: per level, the whole free domains ({@code tas:F:free:LEVEL}) and
   * the largest amount of the main resource one domain could give a required request now
   * ({@code tas:F:largestFit:LEVEL:RESOURCE}); per domain above the lowest level, the used amount of the
   * main resource ({@code tasDomain:F:DOMAIN:RESOURCE}).
   */
  @Override
  public List<String> columns() {
    List<String> out = new ArrayList<>();
    if (!enabled) {
      return out;
    }
    List<TasFlavorSnapshot> snaps = kueue.topologySnapshots();
    for (int i = 0; i < snaps.size(); i++) {
      TasFlavorSnapshot s = snaps.get(i);
      String res = spec.resources().name(probeResource.get(i));
      for (String level : s.levels()) {
        out.add("tas:" + s.flavorName() + ":free:" + level);
        out.add("tas:" + s.flavorName() + ":largestFit:" + level + ":" + res);
      }
      List<Domain> domains = new ArrayList<>();
      for (int l = 0; l < s.levels().size() - 1; l++) {
        for (Domain d : s.domains(l)) {
          out.add("tasDomain:" + s.flavorName() + ":" + d.id() + ":" + res);
          domains.add(d);
        }
      }
      columnDomains.add(domains);
    }
    return out;
  }

  @Override
  public int sample(long[] row, int c) {
    if (!enabled) {
      return c;
    }
    List<TasFlavorSnapshot> snaps = kueue.topologySnapshots();
    for (int i = 0; i < snaps.size(); i++) {
      TasFlavorSnapshot s = snaps.get(i);
      int r = probeResource.get(i);
      long unit = probes.get(i)[r];
      for (int l = 0; l < s.levels().size(); l++) {
        row[c++] = s.freeDomains(l);
        row[c++] = s.largestFit(l, probes.get(i)) * unit;
      }
      for (Domain d : columnDomains.get(i)) {
        row[c++] = s.used(d, r);
      }
    }
    return c;
  }

  /** The run's TAS figures, or null when the scenario has no TAS flavor. */
  TasStats stats() {
    if (!enabled) {
      return null;
    }
    return new TasStats(tasWait, nonTasWait, kueue.nodeRepairs(), kueue.nodeFailureEvictions());
  }
}
