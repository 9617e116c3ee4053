package batchsim.core.world;

import batchsim.core.metrics.MetricFamily;
import java.util.List;

/**
 * Hears the engine's metric model at every scrape of the run ({@link World#scrapeMetrics}): the virtual time and
 * every family as read then. The families are live objects: read them before returning.
 */
@FunctionalInterface
public interface MetricsSink {
  void scrape(long timeMs, List<MetricFamily<?>> families);

  /** True once the sink takes no more scrapes (it grew too large): the run goes on without reading the model. */
  default boolean full() {
    return false;
  }
}
