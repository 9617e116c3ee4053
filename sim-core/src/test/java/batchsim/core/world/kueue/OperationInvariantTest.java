package batchsim.core.world.kueue;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.sim.Specs;
import batchsim.core.world.World;
import org.junit.jupiter.api.Test;

/** An operation on a workload that has left (here: deleting a finished one) is refused and reported. */
class OperationInvariantTest {
  @Test
  void operationOnAFinishedWorkload_isAViolation() {
    Specs s = new Specs().pool("gpu", 1, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, PreemptionSpec.NEVER)
        .job("j1", "team-a", 0, 0, 1, 8, 1_000);
    World world = new World(s.build(), KueueAdmission::new);
    world.runUntil(10_000);
    KueueAdmission k = (KueueAdmission) world.engine();
    assertTrue(k.kueue().reservedWorkloads().isEmpty(), "j1 finished");
    assertTrue(k.kueue().checks().takeOperationViolations().isEmpty());
    k.kueue().delete(k.finishedForTest()); // deleting a finished workload is refused and reported
    assertFalse(k.kueue().checks().takeOperationViolations().isEmpty());
  }
}
