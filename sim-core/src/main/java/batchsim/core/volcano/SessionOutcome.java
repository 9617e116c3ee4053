package batchsim.core.volcano;

import java.util.List;
import java.util.Map;

/**
 * What one session did.
 *
 * @param session the session's number (from 1)
 * @param atMs the virtual time it ran at
 * @param binds binds issued, in commit order (pods are now BINDING)
 * @param evictions evictions issued, in commit order (pods are now RELEASING)
 * @param pipelined per PodGroup id, the nodes its pipelined tasks wait on at session end (not persisted:
 *     pipelined tasks are Pending again next session, as in Volcano)
 * @param phaseChanges PodGroups whose phase the session changed
 */
public record SessionOutcome(
    long session,
    long atMs,
    List<Bind> binds,
    List<Eviction> evictions,
    Map<String, List<String>> pipelined,
    List<PhaseChange> phaseChanges) {

  public record Bind(Pod pod, String node) {}

  public record Eviction(Pod pod, String node, String reason) {}

  public record PhaseChange(PodGroup podGroup, PodGroupPhase from, PodGroupPhase to) {}

  /** Whether the session changed anything (a session that did not need not be repeated until an event). */
  public boolean changed() {
    return !binds.isEmpty() || !evictions.isEmpty() || !phaseChanges.isEmpty();
  }
}
