package batchsim.scenarios.compare;

/** The latency histograms of a result, by the names expectations use and the keys summary.json uses. */
public enum Series {
  /** Created → quota reserved (Kueue's QuotaReserved): the time a workload waits in its queue. */
  WAIT("wait", "time_to_reservation_ms"),
  /** Created → all pods running. */
  START("start", "time_to_start_ms"),
  /** Created → finished. */
  COMPLETION("completion", "completion_ms");

  private final String word;
  private final String jsonKey;

  Series(String word, String jsonKey) {
    this.word = word;
    this.jsonKey = jsonKey;
  }

  public String word() {
    return word;
  }

  String jsonKey() {
    return jsonKey;
  }

  /** The series called {@code word}, or null. */
  public static Series of(String word) {
    for (Series s : values()) {
      if (s.word.equals(word)) {
        return s;
      }
    }
    return null;
  }
}
