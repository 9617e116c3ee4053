package batchsim.core.volcano;

import batchsim.core.model.Resources;
import batchsim.core.model.Toleration;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A pod Volcano schedules as a task of a PodGroup.
 *
 * @param id {@code namespace/name}; the UID used for tie-breaks is {@code namespace-name} (as Volcano's test
 *     helper sets it)
 * @param podGroup the PodGroup's id
 * @param role task role (label {@code volcano.sh/task-spec}); empty when none
 * @param request requests in batchsim base units; 0 = not requested. Volcano adds {@code pods: 1} itself.
 * @param priority pod priority; null = unset (Volcano's TaskInfo then uses 1)
 * @param preemptable false protects the pod from reclaim and preemption
 */
public record PodSpec(
    String id,
    String podGroup,
    String role,
    Resources request,
    Integer priority,
    boolean preemptable,
    SortedMap<String, String> nodeSelector,
    List<Toleration> tolerations,
    long createdMs) {

  public PodSpec {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("a pod needs an id");
    }
    role = role == null ? "" : role;
    nodeSelector = nodeSelector == null ? new TreeMap<>() : new TreeMap<>(nodeSelector);
    tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
  }

  public static PodSpec of(String id, String podGroup, Resources request) {
    return new PodSpec(id, podGroup, "", request, null, true, null, null, 0);
  }

  /** The pod's name (the part after '/'). */
  public String name() {
    return id.substring(id.indexOf('/') + 1);
  }

  /** Volcano's test UID: {@code namespace-name}. */
  public String uid() {
    return id.replace('/', '-');
  }
}
