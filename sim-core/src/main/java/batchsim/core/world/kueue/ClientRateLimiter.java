package batchsim.core.world.kueue;

/**
 * client-go's token bucket (flowcontrol.NewTokenBucketRateLimiter): {@code qps} tokens a second into a bucket
 * of {@code burst}; a write takes one token and waits until there is one. Waiting writes go in the order they
 * asked (client-go's limiter hands out reservations in order). Kept as the theoretical arrival time of the next
 * token (GCRA), in microseconds, so a grant is O(1) and exact.
 */
final class ClientRateLimiter {
  private final long intervalUs;
  private final long toleranceUs;
  /** When the bucket would be exactly empty again if no more writes came (the theoretical arrival time). */
  private long tatUs = Long.MIN_VALUE / 4;
  private long writes;

  ClientRateLimiter(double qps, int burst) {
    this.intervalUs = Math.max(1, Math.round(1_000_000 / qps));
    this.toleranceUs = (burst - 1) * intervalUs;
  }

  /** One write asked at {@code atUs}: when the bucket lets it go (microseconds, never before it asked). */
  long acquireUs(long atUs) {
    long grant = Math.max(atUs, tatUs - toleranceUs);
    tatUs = Math.max(tatUs, atUs) + intervalUs;
    writes++;
    return grant;
  }

  /** The same in milliseconds, rounded up to the millisecond the write goes in. */
  long acquireMs(long atMs) {
    return -Math.floorDiv(-acquireUs(atMs * 1_000), 1_000);
  }

  long writes() {
    return writes;
  }
}
