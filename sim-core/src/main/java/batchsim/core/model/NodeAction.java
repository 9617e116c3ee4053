package batchsim.core.model;

import java.util.List;
import java.util.SortedMap;

/**
 * An action on nodes named exactly (the world applies it under every engine). A name that does not exist
 * at that time (never added, or removed) is refused ({@link ActionRefused}).
 */
public interface NodeAction extends ClusterAction {
  List<String> nodes();

  /**
   * The kubelet stops (false) or resumes (true) reporting: NotReady nodes take no new pods, and their pods
   * are evicted after the node-lifecycle timeout unless the node is Ready again first.
   */
  record SetReady(List<String> nodes, boolean ready) implements NodeAction {}

  /** A taint added ({@code add}) or removed (matched by key and effect). */
  record SetTaint(List<String> nodes, Taint taint, boolean add) implements NodeAction {}

  /** Labels set to their values, or removed where the value is null (one action may change several). */
  record SetLabels(List<String> nodes, SortedMap<String, String> labels) implements NodeAction {}

  /** The Node objects are deleted; their pods fail as on a node failure. */
  record Delete(List<String> nodes) implements NodeAction {}
}
