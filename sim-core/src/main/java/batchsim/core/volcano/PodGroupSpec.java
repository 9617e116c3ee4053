package batchsim.core.volcano;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A Volcano PodGroup.
 *
 * @param id {@code namespace/name}; also the job's UID for tie-breaks
 * @param queue the (leaf) queue's name
 * @param minMember gang size: allocation is committed only when this many tasks can be placed together
 * @param minTaskMember per role (pod label {@code volcano.sh/task-spec}) minimum
 * @param minResources what enqueue reserves in the queue; null = unset (enqueue then admits without asking)
 * @param priority the job priority (from its priority class)
 * @param createdMs creation time; ties are broken by id
 */
public record PodGroupSpec(
    String id,
    String queue,
    int minMember,
    SortedMap<String, Integer> minTaskMember,
    ResourceList minResources,
    int priority,
    long createdMs) {

  public PodGroupSpec {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("a PodGroup needs an id");
    }
    if (minMember < 0) {
      throw new IllegalArgumentException("PodGroup " + id + ": minMember must not be negative");
    }
    minTaskMember = Collections.unmodifiableSortedMap(new TreeMap<>(minTaskMember == null ? Collections.emptyMap()
        : minTaskMember));
  }

  public static PodGroupSpec of(String id, String queue, int minMember, ResourceList minResources) {
    return new PodGroupSpec(id, queue, minMember, null, minResources, 0, 0);
  }

  /** The namespace part of the id (empty when the id has no '/'). */
  public String namespace() {
    int i = id.indexOf('/');
    return i < 0 ? "" : id.substring(0, i);
  }

  /** The name part of the id. */
  public String name() {
    return id.substring(id.indexOf('/') + 1);
  }
}
