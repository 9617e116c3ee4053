package batchsim.core.world.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.sim.Specs;
import batchsim.core.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The world keeps only the workloads that exist: a finished one's record went out and nothing holds it. */
class ForgetsEndedWorkloadsTest {
  @Test
  void finishedWorkloadsLeaveTheLiveSet() {
    Specs s = new Specs().pool("gpu", 1, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, PreemptionSpec.NEVER);
    for (int i = 0; i < 5; i++) {
      s.job("j" + i, "team-a", i, 0, 1, 8, 1_000); // one at a time: one after the other
    }
    World world = new World(s.build(), KueueAdmission::new);
    List<String> ended = new ArrayList<>();
    world.streamWorkloads((seq, r, d) -> ended.add(r.id()));
    world.runUntil(3_500);
    KueueAdmission k = (KueueAdmission) world.engine();
    assertTrue(ended.size() >= 2, ended + " finished");
    assertEquals(5 - ended.size(), k.live.size(), ended + " finished and were forgotten");
    assertEquals("j" + ended.size(), k.live.iterator().next().id());
  }
}
