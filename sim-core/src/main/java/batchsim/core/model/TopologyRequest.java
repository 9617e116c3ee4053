package batchsim.core.model;

import java.util.List;

/**
 * Kueue PodSetTopologyRequest (the pod template's TAS annotations): where the pods of a podSet must, or
 * should, sit together, and how they split into slices.
 *
 * <ul>
 *   <li>{@link Mode#REQUIRED} at {@code level}: all pods in one domain of that level, or the workload waits;
 *   <li>{@link Mode#PREFERRED} at {@code level}: one domain of that level if possible, else one level up;
 *   <li>{@link Mode#UNCONSTRAINED}: any nodes. With slices and no level this is Kueue's "slice-only"
 *       request (unconstrained at the highest level).
 * </ul>
 *
 * {@code slices} are the slice constraints, coarsest first: every {@code size} consecutive pods sit in one
 * domain of the layer's level (podset-slice-required-topology + podset-slice-size; up to three layers for
 * Kueue's multi-layer topology, each inner size dividing the outer one).
 */
public record TopologyRequest(Mode mode, String level, List<SliceLayer> slices) {
  /** Which annotation the request comes from. */
  public enum Mode { REQUIRED, PREFERRED, UNCONSTRAINED }

  /** One slice layer: every {@code size} pods in one domain of {@code level}. */
  public record SliceLayer(String level, int size) {}

  public TopologyRequest {
    slices = slices == null ? List.of() : List.copyOf(slices);
  }

  public static TopologyRequest required(String level) {
    return new TopologyRequest(Mode.REQUIRED, level, List.of());
  }

  public static TopologyRequest preferred(String level) {
    return new TopologyRequest(Mode.PREFERRED, level, List.of());
  }

  public static TopologyRequest unconstrained() {
    return new TopologyRequest(Mode.UNCONSTRAINED, null, List.of());
  }

  /** This request with one more (inner) slice layer. */
  public TopologyRequest withSlice(String sliceLevel, int size) {
    List<SliceLayer> s = new java.util.ArrayList<>(slices);
    s.add(new SliceLayer(sliceLevel, size));
    return new TopologyRequest(mode, level, s);
  }

  public boolean hasSlices() {
    return !slices.isEmpty();
  }
}
