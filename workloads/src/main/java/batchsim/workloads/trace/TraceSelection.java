package batchsim.workloads.trace;

/**
 * Which trace jobs are replayed, and when.
 *
 * <p>Times are trace time measured from the trace's first submission: jobs submitted in
 * [{@code fromMs}, {@code toMs}) are kept, and the one submitted at {@code fromMs} would arrive at virtual
 * time 0; gaps are divided by {@code speedup}. Jobs whose size or runtime the trace leaves unknown are
 * always dropped (they cannot be simulated).
 *
 * @param toMs end of the window (exclusive), or {@link Long#MAX_VALUE}
 * @param speedup arrivals come this many times faster than in the trace (runtimes are not scaled)
 * @param sample keep each job with this probability, decided by the run's seeded random stream
 * @param limit stop after this many workloads, or {@link #UNLIMITED}
 * @param sortBuffer jobs sorted in memory at once; longer unsorted traces are sorted through temp files
 */
public record TraceSelection(long fromMs, long toMs, double speedup, double sample, boolean dropCancelled,
    boolean dropFailed, long limit, SortMode sort, int sortBuffer, OnError onError) {

  public static final long UNLIMITED = -1;
  public static final int DEFAULT_SORT_BUFFER = 250_000;
  public static final TraceSelection ALL = new TraceSelection(0, Long.MAX_VALUE, 1, 1, false, false, UNLIMITED,
      SortMode.AUTO, DEFAULT_SORT_BUFFER, OnError.FAIL);

  /** Whether to sort by submission time before replay. */
  public enum SortMode {
    /** Sort when the file turns out not to be sorted (checked when the scenario is loaded). */
    AUTO,
    ALWAYS,
    /** Never; a job submitted before the previous one is an error. */
    NEVER
  }

  public TraceSelection {
    if (fromMs < 0 || toMs <= fromMs) {
      throw new IllegalArgumentException("window needs 0 <= from < to");
    }
    if (!(speedup > 0) || Double.isInfinite(speedup)) {
      throw new IllegalArgumentException("speedup must be > 0");
    }
    if (!(sample > 0 && sample <= 1)) {
      throw new IllegalArgumentException("sample must be in (0, 1]");
    }
    if (sortBuffer < 1) {
      throw new IllegalArgumentException("sortBuffer must be >= 1");
    }
  }

  /** A copy that stops at malformed lines or skips them. */
  public TraceSelection withOnError(OnError e) {
    return new TraceSelection(fromMs, toMs, speedup, sample, dropCancelled, dropFailed, limit, sort, sortBuffer, e);
  }
}
