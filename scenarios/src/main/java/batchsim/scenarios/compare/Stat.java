package batchsim.scenarios.compare;

/** A statistic of a latency histogram, as summary.json reports it (HdrHistogram percentiles). */
public enum Stat {
  P50("p50", 50), P90("p90", 90), P95("p95", 95), P99("p99", 99), MAX("max", 100), MEAN("mean", -1);

  private final String word;
  private final double percentile;

  Stat(String word, double percentile) {
    this.word = word;
    this.percentile = percentile;
  }

  public String word() {
    return word;
  }

  /** The percentile, or -1 for the mean (max is the 100th). */
  double percentile() {
    return percentile;
  }

  /** The statistic called {@code word}, or null. */
  public static Stat of(String word) {
    for (Stat s : values()) {
      if (s.word.equals(word)) {
        return s;
      }
    }
    return null;
  }
}
