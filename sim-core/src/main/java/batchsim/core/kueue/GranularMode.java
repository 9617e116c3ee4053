package batchsim.core.kueue;

import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FungibilityPolicy;
import batchsim.core.model.FungibilityPreference;

/** A flavor's (preemption mode, borrowing level) pair and Kueue's preference rules between them. */
record GranularMode(PreemptionMode mode, int borrow) {
  static final GranularMode WORST = new GranularMode(PreemptionMode.NO_FIT, Integer.MAX_VALUE);
  static final GranularMode BEST = new GranularMode(PreemptionMode.FIT, 0);

  /** Kueue isPreferred(a, b): noFit never wins; noCandidates loses to any viable mode; then the preference. */
  static boolean isPreferred(GranularMode a, GranularMode b, FlavorFungibility f) {
    if (a.mode == PreemptionMode.NO_FIT) {
      return false;
    }
    if (b.mode == PreemptionMode.NO_FIT) {
      return true;
    }
    boolean aNone = a.mode == PreemptionMode.NO_CANDIDATES;
    boolean bNone = b.mode == PreemptionMode.NO_CANDIDATES;
    if (aNone != bNone) {
      return !aNone;
    }
    if (f.effectivePreference() == FungibilityPreference.PREEMPTION_OVER_BORROWING) {
      if (a.borrow != b.borrow) {
        return a.borrow < b.borrow;
      }
      return a.mode.compareTo(b.mode) > 0;
    }
    if (a.mode != b.mode) {
      return a.mode.compareTo(b.mode) > 0;
    }
    return a.borrow < b.borrow;
  }

  /** Kueue shouldTryNextFlavor. */
  static boolean shouldTryNextFlavor(GranularMode m, FlavorFungibility f) {
    if (m.mode == PreemptionMode.NO_FIT || m.mode == PreemptionMode.NO_CANDIDATES) {
      return true;
    }
    if (m.mode.isPreemptMode() && f.whenCanPreempt() == FungibilityPolicy.TRY_NEXT_FLAVOR) {
      return true;
    }
    return m.borrow != 0 && f.whenCanBorrow() == FungibilityPolicy.TRY_NEXT_FLAVOR;
  }
}
