package batchsim.core.model;

import java.util.List;

/**
 * Something an operator or the environment does to the cluster at a point of the timeline. Node actions
 * pick {@code count} nodes of {@code pool} (the first ones in a state the action applies to, in node
 * order) or the named {@code nodes}. Families of actions on other objects implement it in their own files
 * ({@link QueueObjectAction}, ...); the world applies node and arrival actions, the engine the rest.
 */
public interface ClusterAction {
  /** Nodes become NotReady; their pods fail. They recover after {@code repairAfter} (null = never). */
  record FailNodes(String pool, int count, List<String> nodes, LongDistribution repairAfter) implements ClusterAction {}

  /** Nodes stop accepting pods; with {@code drain} their pods are evicted too (kubectl drain). */
  record CordonNodes(String pool, int count, List<String> nodes, boolean drain) implements ClusterAction {}

  /** Cordoned nodes accept pods again. */
  record UncordonNodes(String pool, int count, List<String> nodes) implements ClusterAction {}

  /** New nodes join the pool (named after the pool, numbered on from its last node). */
  record AddNodes(String pool, int count) implements ClusterAction {}

  /** Nodes leave the pool (the last ones first); their pods fail as on a node failure. */
  record RemoveNodes(String pool, int count) implements ClusterAction {}

  /** Changes one quota of a ClusterQueue (Kueue reacts by retrying its parked workloads). */
  record SetQuota(String clusterQueue, String flavor, String resource, QuotaSpec quota) implements ClusterAction {}

  /** Replaces a ClusterQueue's preemption policy. */
  record SetPreemption(String clusterQueue, PreemptionSpec preemption) implements ClusterAction {}

  /**
   * Kueue stopPolicy on a ClusterQueue or LocalQueue: Hold stops admission, HoldAndDrain also evicts
   * what is admitted; None resumes.
   */
  record StopQueue(String clusterQueue, String localQueue, StopPolicy policy) implements ClusterAction {}

  /** Deletes a ClusterQueue or a LocalQueue; its workloads wait with Kueue's Misconfigured reason. */
  record DeleteQueue(String clusterQueue, String localQueue) implements ClusterAction {}

  /**
   * Kueue's controller manager restarts (a leader change): it is down for {@code downFor} (null = no down
   * time), then rebuilds its in-memory state from the objects and handles what happened meanwhile.
   */
  record RestartKueue(LongDistribution downFor) implements ClusterAction {}

  /** Multiplies a workload class's arrival rate from now on (gaps are divided by the factor). */
  record ScaleArrivals(String workloadClass, double factor) implements ClusterAction {}

  /** Kueue's ClusterQueue / LocalQueue spec.stopPolicy. */
  enum StopPolicy implements KueueEnum {
    NONE("None"),
    HOLD("Hold"),
    HOLD_AND_DRAIN("HoldAndDrain");

    private final String kueueName;

    StopPolicy(String kueueName) {
      this.kueueName = kueueName;
    }

    @Override
    public String kueueName() {
      return kueueName;
    }
  }
}
