package batchsim.core.world;

import batchsim.core.model.TimelineEvent;
import batchsim.core.model.VolcanoAction;
import batchsim.core.model.WorkloadAction;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Why a workload that ended no longer exists ("it finished at 12m"), for the timeline actions that name it
 * afterwards. An engine forgets a workload when it ends, as Kueue and Volcano do; only the workloads some
 * timeline action names are remembered here, so a finished workload costs nothing otherwise.
 */
public final class EndedWorkloads {
  private record Ended(long seq, String why) {}

  private final Set<String> named = new HashSet<>();
  private final Map<String, Ended> ended = new HashMap<>();

  /** Remembers the workloads the timeline's workload actions name. */
  public EndedWorkloads(List<TimelineEvent> timeline) {
    for (TimelineEvent e : timeline) {
      if (e.action() instanceof WorkloadAction a) {
        named.add(a.workload());
      } else if (e.action() instanceof VolcanoAction.DeletePodGroup a) {
        named.add(a.workload());
      }
    }
  }

  /** Whether any timeline action names a workload (else nothing need be remembered). */
  public boolean any() {
    return !named.isEmpty();
  }

  /**
   * The workload submitted {@code seq}-th ended; {@code why} completes "does not exist: ". {@code names} are
   * the names an action may use for it (its id, and "namespace/id").
   */
  public void ended(long seq, String why, String... names) {
    for (String n : names) {
      if (named.contains(n)) {
        ended.put(n, new Ended(seq, why));
      }
    }
  }

  /**
   * Why the workload named {@code name} does not exist, when the last one so named ended after the live one
   * submitted {@code liveSeq}-th (-1: none is live); else null.
   */
  public String refusal(String name, long liveSeq) {
    Ended e = ended.get(name);
    return e == null || e.seq < liveSeq ? null : e.why;
  }
}
