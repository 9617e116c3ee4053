package batchsim.core.model;

/**
 * An action at {@code atMs}, repeated every {@code every} (null = once) until {@code untilMs}. {@code source}
 * locates the event in its scenario ({@code file:line:col: events[i]}) for errors found while the run
 * applies it; null for events made in code.
 */
public record TimelineEvent(long atMs, LongDistribution every, long untilMs, ClusterAction action, String source) {
  public TimelineEvent(long atMs, LongDistribution every, long untilMs, ClusterAction action) {
    this(atMs, every, untilMs, action, null);
  }

  public static TimelineEvent once(long atMs, ClusterAction action) {
    return new TimelineEvent(atMs, null, Long.MAX_VALUE, action);
  }
}
