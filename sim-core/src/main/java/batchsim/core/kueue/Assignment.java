package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The flavor assigner's answer for one workload: per podSet the chosen flavor of each resource and its
 * mode, the total quota usage, and the borrowing height. Port of Kueue's flavorassigner.Assignment.
 */
final class Assignment {
  final List<PodSetAssignment> podSets = new ArrayList<>();
  final TreeMap<Integer, Long> usageMap = new TreeMap<>();
  int borrowing;
  /** Kueue NoFitReason: WaitingForQuota, ExceedsMaxQuota or NoMatchingFlavor; "" when not NoFit. */
  String noFitReason = "";
  LastAssignment lastState;
  /** [TAS] The podSets' topology assignments (Kueue PodSetAssignment.TopologyAssignment), or null. */
  Tas.Placement tas;
  private AssignmentMode override;

  private FrAmounts usage;

  /** The total usage; built once, after the assigner has filled {@link #usageMap} (fair-sharing sorts ask often). */
  FrAmounts usage() {
    if (usage == null) {
      usage = FrAmounts.of(usageMap);
    }
    return usage;
  }

  void setRepresentativeMode(AssignmentMode m) {
    override = m;
  }

  /** [TAS] Kueue Assignment.updateMode: every flavor of the podSet takes the mode, and so does the assignment. */
  void updateMode(PodSetAssignment ps, AssignmentMode m) {
    for (int r = 0; r < ps.flavor.length; r++) {
      if (ps.flavor[r] >= 0) {
        ps.mode[r] = m;
      }
    }
    override = m;
  }

  AssignmentMode representativeMode() {
    if (podSets.isEmpty()) {
      return AssignmentMode.NO_FIT;
    }
    if (override != null) {
      return override;
    }
    AssignmentMode mode = AssignmentMode.FIT;
    for (PodSetAssignment ps : podSets) {
      AssignmentMode m = ps.representativeMode();
      if (m.compareTo(mode) < 0) {
        mode = m;
      }
    }
    return mode;
  }

  /** The frs assigned in Preempt mode (Kueue flavorResourcesNeedPreemption), sorted. */
  int[] frsNeedingPreemption(FlavorResources idx) {
    java.util.TreeSet<Integer> s = new java.util.TreeSet<>();
    for (PodSetAssignment ps : podSets) {
      for (int r = 0; r < ps.flavor.length; r++) {
        if (ps.flavor[r] >= 0 && ps.mode[r] == AssignmentMode.PREEMPT) {
          s.add(idx.fr(ps.flavor[r], r));
        }
      }
    }
    return s.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Kueue Assignment.Message: the reasons of every podSet that does not fit. */
  String message() {
    StringBuilder sb = new StringBuilder();
    for (PodSetAssignment ps : podSets) {
      if (ps.reasons.isEmpty()) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append("; ");
      }
      List<String> sorted = new ArrayList<>(ps.reasons);
      java.util.Collections.sort(sorted);
      sb.append("couldn't assign flavors to pod set ").append(ps.name).append(": ")
          .append(String.join(", ", sorted));
    }
    return sb.toString();
  }

  /** One podSet's part of the assignment. */
  static final class PodSetAssignment {
    final String name;
    final int count;
    final int[] flavor; // per resource, -1 when unassigned
    final AssignmentMode[] mode;
    final int[] borrow;
    final int[] triedIdx;
    final List<String> reasons = new ArrayList<>();
    /** Flavors tried and found NoFit, with Kueue's NoFit reason, for resolveNoFitReason. */
    final List<String[]> noFitAttempts = new ArrayList<>();
    boolean attemptedAny;

    PodSetAssignment(String name, int count, int resources) {
      this.name = name;
      this.count = count;
      this.flavor = new int[resources];
      this.mode = new AssignmentMode[resources];
      this.borrow = new int[resources];
      this.triedIdx = new int[resources];
      java.util.Arrays.fill(flavor, -1);
      java.util.Arrays.fill(triedIdx, LastAssignment.NOT_TRIED);
    }

    boolean hasFlavors() {
      for (int f : flavor) {
        if (f >= 0) {
          return true;
        }
      }
      return false;
    }

    AssignmentMode representativeMode() {
      if (reasons.isEmpty()) {
        return AssignmentMode.FIT;
      }
      if (!hasFlavors()) {
        return AssignmentMode.NO_FIT;
      }
      AssignmentMode m = AssignmentMode.FIT;
      for (int r = 0; r < flavor.length; r++) {
        if (flavor[r] >= 0 && mode[r].compareTo(m) < 0) {
          m = mode[r];
        }
      }
      return m;
    }
  }
}
