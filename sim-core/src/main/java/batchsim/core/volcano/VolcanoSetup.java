package batchsim.core.volcano;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a run under Volcano needs besides the {@link batchsim.core.model.SimulationSpec} both engines share
 * (cluster, workloads, timeline): the scheduler configuration, the queues, and which queue each workload goes
 * to. Already validated: every LocalQueue of the scenario has a queue, and with hierarchical queues that queue
 * is a leaf.
 *
 * @param config actions, plugin tiers, schedule period and bind delay
 * @param queues Volcano queues in declaration order ({@code root} and {@code default} are added when absent,
 *     as Volcano's scheduler cache does)
 * @param queueFor LocalQueue (as workloads name it) → Volcano queue
 * @param terminationGraceMs time from an eviction until the pod is gone from its node
 */
public record VolcanoSetup(VolcanoConfig config, List<VolcanoQueueSpec> queues, SortedMap<String, String> queueFor,
    long terminationGraceMs) {
  public VolcanoSetup {
    queues = List.copyOf(queues);
    queueFor = Collections.unmodifiableSortedMap(new TreeMap<>(queueFor));
    if (terminationGraceMs < 0) {
      throw new IllegalArgumentException("terminationGraceMs must not be negative");
    }
  }
}
