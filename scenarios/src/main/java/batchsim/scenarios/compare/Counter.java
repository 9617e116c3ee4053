package batchsim.scenarios.compare;

/** A per-queue count of a result, by the names expectations use and the keys summary.json uses. */
public enum Counter {
  ARRIVED("arrived", "arrived", Better.NEITHER),
  ADMITTED("admitted", "admitted", Better.HIGHER),
  FINISHED("finished", "finished", Better.HIGHER),
  /** Still waiting for quota when the run ended. */
  PENDING("pending", "pending_at_end", Better.LOWER),
  EVICTIONS("evictions", "evicted", Better.LOWER),
  PREEMPTIONS("preemptions", "preempted", Better.LOWER);

  private final String word;
  private final String jsonKey;
  private final Better better;

  Counter(String word, String jsonKey, Better better) {
    this.word = word;
    this.jsonKey = jsonKey;
    this.better = better;
  }

  public String word() {
    return word;
  }

  String jsonKey() {
    return jsonKey;
  }

  public Better better() {
    return better;
  }

  /** The counter called {@code word}, or null. */
  public static Counter of(String word) {
    for (Counter c : values()) {
      if (c.word.equals(word)) {
        return c;
      }
    }
    return null;
  }
}
