package batchsim.core.model;

/**
 * An action at {@code atMs}, repeated every {@code every} (null = once) until {@code untilMs}.
 */
public record TimelineEvent(long atMs, LongDistribution every, long untilMs, ClusterAction action) {
  public static TimelineEvent once(long atMs, ClusterAction action) {
    return new TimelineEvent(atMs, null, Long.MAX_VALUE, action);
  }
}
