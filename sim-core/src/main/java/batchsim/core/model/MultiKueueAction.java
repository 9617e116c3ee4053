package batchsim.core.model;

/** Timeline actions on MultiKueue's worker clusters (the manager's Kueue applies them). */
public interface MultiKueueAction extends ClusterAction {
  /**
   * The manager loses its connection to a worker ({@code connected = false}: the MultiKueueCluster turns
   * Active=False) or gets it back. The worker itself goes on running what it has.
   */
  record WorkerConnection(String worker, boolean connected) implements MultiKueueAction {}
}
