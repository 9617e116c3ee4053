package batchsim.core.world;

import batchsim.core.metrics.PoolStats;
import batchsim.core.metrics.Recorder;
import batchsim.core.metrics.UtilizationStat;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.SimulationSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Capacity and allocation per ResourceFlavor and resource, plus an all-nodes row, integrated exactly over time
 * by the {@link Recorder}, under either engine. A flavor stands for the node pools its node
 * labels select. The slot of flavor {@code f} and resource {@code r} is {@code f * nRes + r}; the all-nodes
 * row is {@code f = nFlavors}.
 */
public final class CapacityAccounting implements SampleSource {
  private final SimulationSpec spec;
  private final Recorder recorder;
  private final int nRes;
  private final int nFlavors;
  /** Per flavor, which node pools it stands for (its node labels match). */
  private final boolean[][] flavorPools;

  CapacityAccounting(SimulationSpec spec, Recorder recorder) {
    this.spec = spec;
    this.recorder = recorder;
    this.nRes = spec.resources().size();
    this.nFlavors = spec.flavors().size();
    this.flavorPools = new boolean[nFlavors][];
    for (int f = 0; f < nFlavors; f++) {
      flavorPools[f] = poolsOf(spec.flavors().get(f), spec.nodePools());
    }
  }

  /** The number of slots (flavor × resource, plus the all-nodes row). */
  static int slots(SimulationSpec spec) {
    return (spec.flavors().size() + 1) * spec.resources().size();
  }

  private static boolean[] poolsOf(ResourceFlavorSpec f, List<NodePoolSpec> pools) {
    boolean[] out = new boolean[pools.size()];
    for (int p = 0; p < out.length; p++) {
      boolean ok = true;
      for (var e : f.nodeLabels().entrySet()) {
        ok &= e.getValue().equals(pools.get(p).labels().get(e.getKey()));
      }
      out[p] = ok;
    }
    return out;
  }

  /** A node of {@code pool} joined (+1) or left (-1): its allocatable adds to every flavor it belongs to. */
  void node(int pool, int sign, long now) {
    NodePoolSpec p = spec.nodePools().get(pool);
    for (int r = 0; r < nRes; r++) {
      long amount = p.allocatable().get(r);
      if (amount == 0) {
        continue;
      }
      for (int f = 0; f < nFlavors; f++) {
        if (flavorPools[f][pool]) {
          recorder.capacity(f * nRes + r, sign * amount, now);
        }
      }
      recorder.capacity(nFlavors * nRes + r, sign * amount, now);
    }
    recorder.poolNodes(pool, sign, now);
  }

  /** A pod was bound to (+1) or released from (-1) a node of {@code pool}. */
  public void allocation(int pool, long[] request, int sign, long now) {
    for (int r = 0; r < nRes; r++) {
      if (request[r] == 0) {
        continue;
      }
      for (int f = 0; f < nFlavors; f++) {
        if (flavorPools[f][pool]) {
          recorder.allocation(f * nRes + r, sign * request[r], now);
        }
      }
      recorder.allocation(nFlavors * nRes + r, sign * request[r], now);
    }
  }

  /** Per flavor (the pools its node labels select) and overall: time-weighted allocation ÷ capacity. */
  List<UtilizationStat> utilization(long end) {
    List<UtilizationStat> out = new ArrayList<>();
    boolean[] all = new boolean[spec.nodePools().size()];
    Arrays.fill(all, true);
    for (int f = 0; f <= nFlavors; f++) {
      String name = f < nFlavors ? spec.flavors().get(f).name() : UtilizationStat.ALL_NODES;
      for (int r = 0; r < nRes; r++) {
        int slot = f * nRes + r;
        // Capacity is integrated too: nodes may be added or removed during the run.
        double cap = recorder.meanCapacity(slot, end);
        if (cap > 0 || recorder.capacityLevel(slot) > 0) {
          double mean = recorder.meanAllocation(slot, end);
          out.add(new UtilizationStat(name, spec.resources().name(r), mean, cap, cap == 0 ? 0 : mean / cap,
              recorder.peakAllocation(slot)));
        }
      }
    }
    return out;
  }

  List<PoolStats> poolStats(long end) {
    List<PoolStats> out = new ArrayList<>();
    for (int p = 0; p < spec.nodePools().size(); p++) {
      out.add(recorder.poolStats(p, spec.nodePools().get(p).name(), end));
    }
    return out;
  }

  /**
   * Column names of the cluster-wide samples, the same under both engines: {@code allocated:} then
   * {@code capacity:} per flavor (and all nodes) and resource, then {@code nodes:} and {@code failed:} per pool.
   */
  @Override
  public List<String> columns() {
    List<String> out = new ArrayList<>();
    for (String kind : List.of("allocated", "capacity")) {
      for (int f = 0; f <= nFlavors; f++) {
        for (int r = 0; r < nRes; r++) {
          String flavor = f < nFlavors ? spec.flavors().get(f).name() : UtilizationStat.ALL_NODES;
          out.add(kind + ":" + flavor + ":" + spec.resources().name(r));
        }
      }
    }
    for (NodePoolSpec p : spec.nodePools()) {
      out.add("nodes:" + p.name());
      out.add("failed:" + p.name());
    }
    return out;
  }

  @Override
  public int sample(long[] row, int c) {
    int slots = slots(spec);
    for (int slot = 0; slot < slots; slot++) {
      row[c++] = recorder.allocationLevel(slot);
    }
    for (int slot = 0; slot < slots; slot++) {
      row[c++] = recorder.capacityLevel(slot);
    }
    for (int p = 0; p < spec.nodePools().size(); p++) {
      row[c++] = recorder.poolNodesLevel(p);
      row[c++] = recorder.poolFailedLevel(p);
    }
    return c;
  }
}
