package batchsim.core.world;

/** Receives status records in virtual-time order as the run goes (streamed: the run keeps none of them). */
@FunctionalInterface
public interface StatusSink {
  void accept(StatusRecord r);
}
