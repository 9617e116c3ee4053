package batchsim.core.world;

import batchsim.core.model.FailureModel;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/** The scenario's per-pool failure models, each drawing from its own random stream; shared by both engines. */
final class FailureModels {
  private final Map<Integer, FailureModel> byPool = new HashMap<>();
  private final Map<Integer, SplittableRandom> random = new HashMap<>();

  void add(int pool, FailureModel model, SplittableRandom stream) {
    byPool.put(pool, model);
    random.put(pool, stream);
  }

  boolean covers(int pool) {
    return byPool.containsKey(pool);
  }

  /** Time until a healthy node of {@code pool} fails; the pool must be covered. */
  long timeToFailure(int pool) {
    return byPool.get(pool).timeBetweenFailures().sample(random.get(pool));
  }

  /** Time a failed node of {@code pool} takes to be repaired; the pool must be covered. */
  long repairTime(int pool) {
    return byPool.get(pool).repairTime().sample(random.get(pool));
  }
}
