package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The allocation figure bin/bench reads: this thread's bytes, which grow as it allocates. */
class SelfReportTest {
  @Test
  void allocatedBytes_countThisThreadsAllocations() {
    long before = SelfReport.allocatedBytes();
    long[][] garbage = new long[64][];
    for (int i = 0; i < garbage.length; i++) {
      garbage[i] = new long[1 << 14]; // 64 x 128 KiB = 8 MiB
    }
    long after = SelfReport.allocatedBytes();
    assertTrue(before > 0, "the JVM reports per-thread allocation");
    assertTrue(after - before >= 8L << 20, (after - before) + " bytes for 8 MiB of arrays " + garbage.length);
  }
}
