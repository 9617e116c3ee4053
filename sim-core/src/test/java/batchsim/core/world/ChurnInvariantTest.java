package batchsim.core.world;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.LongDistribution;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ServingSpec;
import batchsim.core.sim.Specs;
import batchsim.core.world.kueue.KueueAdmission;
import org.junit.jupiter.api.Test;

/** The PodGroup invariant fires when a deletion removes the newer PodGroup of the same name. */
class ChurnInvariantTest {
  @Test
  void deleteByName_removingTheScaledUpPodGroup_isAViolation() {
    Specs s = new Specs().pool("gpu", 1, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, PreemptionSpec.NEVER);
    s.serving.add(new ServingSpec("web", "team-a", 0, PodSetSpec.of("main", 1, Specs.res(0, 1)), 0,
        LongDistribution.constant(600_000), LongDistribution.constant(60_000), 3, LongDistribution.constant(0), 0,
        LongDistribution.constant(1_000)));
    World world = new World(s.build(), KueueAdmission::new);
    world.runUntil(700_000); // scaled down at 10 min, scaled up again at 11 min (web#2)
    assertTrue(world.churn().checkInvariants().isEmpty());
    world.churn().deleteNewestByName("web"); // the bug: a stale delete-by-name hits web#2
    assertFalse(world.churn().checkInvariants().isEmpty());
  }
}
