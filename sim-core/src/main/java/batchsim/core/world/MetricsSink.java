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
}
