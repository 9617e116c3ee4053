package batchsim.core.kueue.tas;

import java.util.ArrayList;
import java.util.List;

/**
 * Kueue's internal TopologyAssignment ({@code pkg/util/tas}): per leaf domain of one TAS flavor, how many
 * pods of the podSet go there. Slots are sorted by level values, as Kueue's buildAssignment sorts them.
 * {@code leaf} indexes the flavor snapshot's leaves; {@code id} is Kueue's domain ID (the hostname when
 * hostname is the lowest level).
 */
public record TopologyAssignment(List<Slot> slots) {
  /** {@code count} pods on leaf {@code leaf}. */
  public record Slot(int leaf, String id, int count) {}

  public TopologyAssignment {
    slots = List.copyOf(slots);
  }

  public int total() {
    int n = 0;
    for (Slot s : slots) {
      n += s.count();
    }
    return n;
  }

  /** Pods assigned to a leaf (0 when absent). */
  public int countOn(int leaf) {
    for (Slot s : slots) {
      if (s.leaf() == leaf) {
        return s.count();
      }
    }
    return 0;
  }

  /** {@code id:count} pairs, for messages and tests, e.g. {@code [x1:3, x2:1]}. */
  public List<String> describe() {
    List<String> out = new ArrayList<>();
    for (Slot s : slots) {
      out.add(s.id() + ":" + s.count());
    }
    return out;
  }

  @Override
  public String toString() {
    return describe().toString();
  }
}
