package batchsim.core.model;

/**
 * A timeline action names something that does not exist at the time it is applied (a deleted queue, a
 * workload that finished or has not arrived, a node that was removed), or asks for what the object's state
 * forbids. The run stops; the world reports it with the event's location.
 */
public final class ActionRefused extends RuntimeException {
  public ActionRefused(String message) {
    super(message);
  }
}
