package batchsim.core.sim;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSchedulingConfig;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/** Fluent builders for small hand-made simulations (cpu in milli-cores, gpu in units). */
public final class Specs {
  public static final ResourceSpace RES = ResourceSpace.of(List.of("cpu", "memory", "pods", "nvidia.com/gpu"));

  public final List<NodePoolSpec> pools = new ArrayList<>();
  public final List<ResourceFlavorSpec> flavors = new ArrayList<>();
  public final List<CohortSpec> cohorts = new ArrayList<>();
  public final List<ClusterQueueSpec> cqs = new ArrayList<>();
  public final List<LocalQueueSpec> lqs = new ArrayList<>();
  public final List<WorkloadSpec> workloads = new ArrayList<>();
  public KueueConfig kueue = KueueConfig.defaults();
  public PodSchedulingConfig podScheduling = PodSchedulingConfig.defaults();
  public long horizon = SimulationSpec.NO_HORIZON;
  /** Time-series (and metric snapshot) spacing; 0 = no sampling. */
  public long sampleInterval;
  public final List<batchsim.core.model.TimelineEvent> timeline = new ArrayList<>();
  public final List<batchsim.core.model.FailureModel> failures = new ArrayList<>();
  public final List<batchsim.core.model.ServingSpec> serving = new ArrayList<>();

  public static Resources res(long cpuMilli, long gpu) {
    return Resources.wrap(new long[] {cpuMilli, 0, 0, gpu});
  }

  public Specs pool(String name, int count, long cpuMilli, long gpu) {
    TreeMap<String, String> labels = new TreeMap<>();
    labels.put("pool", name);
    pools.add(new NodePoolSpec(name, count, labels, List.of(), Resources.wrap(new long[] {cpuMilli, 1L << 40, 110, gpu})));
    return this;
  }

  public Specs flavor(String name, String pool) {
    TreeMap<String, String> labels = new TreeMap<>();
    if (pool != null) {
      labels.put("pool", pool);
    }
    flavors.add(new ResourceFlavorSpec(name, labels, List.of(), List.of(), null));
    return this;
  }

  /** A CQ covering gpu in one flavor with the given quota; a LocalQueue of the same name. */
  public Specs gpuQueue(String name, String cohort, String flavor, long nominal, long borrowingLimit, long lendingLimit,
      PreemptionSpec preemption) {
    Map<String, QuotaSpec> q = new LinkedHashMap<>();
    q.put("nvidia.com/gpu", new QuotaSpec(nominal, borrowingLimit, lendingLimit));
    cqs.add(new ClusterQueueSpec(name, cohort,
        List.of(new ResourceGroupSpec(List.of("nvidia.com/gpu"), List.of(new FlavorQuotaSpec(flavor, q)))),
        QueueingStrategy.BEST_EFFORT_FIFO, preemption, FlavorFungibility.DEFAULT, 1.0, List.of()));
    lqs.add(new LocalQueueSpec(name, name));
    return this;
  }

  public Specs job(String id, String queue, long atMs, int priority, int pods, long gpuPerPod, long runtimeMs) {
    workloads.add(new WorkloadSpec(id, "job", queue, atMs, priority, null,
        List.of(PodSetSpec.of("main", pods, res(0, gpuPerPod))), runtimeMs));
    return this;
  }

  /** A source replaying {@code workloads} as given (sorted by creation time). */
  public static WorkloadSourceSpec listSource(List<WorkloadSpec> workloads) {
    return new WorkloadSourceSpec() {
      @Override
      public String name() {
        return "list";
      }

      @Override
      public WorkloadSource open(SplittableRandom random) {
        var it = workloads.iterator();
        return () -> it.hasNext() ? it.next() : null;
      }
    };
  }

  public SimulationSpec build() {
    List<WorkloadSpec> sorted = new ArrayList<>(workloads);
    sorted.sort(java.util.Comparator.comparingLong(WorkloadSpec::createdMs));
    WorkloadSourceSpec src = listSource(sorted);
    return new SimulationSpec("test", 1, horizon, RES, pools, flavors, cohorts, cqs, lqs, List.of(), kueue,
        podScheduling, List.of(src), sampleInterval, timeline, failures, serving);
  }
}
