package batchsim.core.world.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClientRateLimiterTest {

  @Test
  void aFullBucketLetsBurstWritesGoAtOnceThenOnePerInterval() {
    ClientRateLimiter c = new ClientRateLimiter(50, 100); // minimalkueue's client: 20 ms per token
    for (int i = 0; i < 100; i++) {
      assertEquals(1_000, c.acquireMs(1_000), "write " + i + " is within the burst");
    }
    assertEquals(1_020, c.acquireMs(1_000));
    assertEquals(1_040, c.acquireMs(1_000));
    assertEquals(102, c.writes());
  }

  @Test
  void waitingWritesGoInTheOrderTheyAskedAndTheBucketRefillsWhileIdle() {
    ClientRateLimiter c = new ClientRateLimiter(10, 2); // 100 ms per token
    assertEquals(0, c.acquireMs(0));
    assertEquals(0, c.acquireMs(0));
    assertEquals(100, c.acquireMs(0));
    assertEquals(200, c.acquireMs(50)); // queued behind the third
    // Idle for a second: the bucket is full again (2 tokens), not more.
    assertEquals(1_500, c.acquireMs(1_500));
    assertEquals(1_500, c.acquireMs(1_500));
    assertEquals(1_600, c.acquireMs(1_500));
  }

  @Test
  void fractionalIntervalsAddUpInMicroseconds() {
    ClientRateLimiter c = new ClientRateLimiter(300, 1); // 3,333 us per token
    assertEquals(0, c.acquireUs(0));
    assertEquals(3_333, c.acquireUs(0));
    assertEquals(6_666, c.acquireUs(0));
    assertEquals(10, c.acquireMs(0)); // 9,999 us, rounded up to the millisecond the write goes in
  }
}
