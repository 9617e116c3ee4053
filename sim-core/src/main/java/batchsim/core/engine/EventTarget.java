package batchsim.core.engine;

/**
 * Who handles an event: the part of the world (or engine) that scheduled it. The loop's owner only hands each
 * event to its target, so parts need no central switch and several clusters can share one loop.
 */
@FunctionalInterface
public interface EventTarget {
  void handle(Event e);
}
