package batchsim.core.kueue;

/** A compiled resourceGroup: covered resource indices and flavor indices, in CQ order. */
record ResourceGroup(int[] covered, int[] flavors) {
  boolean covers(int resource) {
    for (int r : covered) {
      if (r == resource) {
        return true;
      }
    }
    return false;
  }
}
