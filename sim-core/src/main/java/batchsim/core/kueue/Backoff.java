package batchsim.core.kueue;

/** Kueue's capped exponential backoff (PodsReady requeue, admission check retry, TAS second pass). */
public final class Backoff {
  private Backoff() {}

  /** {@code baseMs × 2^(attempt-1)}, capped at {@code maxMs}; attempt 1 waits {@code baseMs}. */
  public static long exponential(long baseMs, long maxMs, int attempt) {
    long d = baseMs;
    for (int i = 1; i < attempt && d < maxMs; i++) {
      d *= 2;
    }
    return Math.min(d, maxMs);
  }
}
