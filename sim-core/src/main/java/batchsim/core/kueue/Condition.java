package batchsim.core.kueue;

/** A workload condition as Kueue writes it; {@code timeMs} is the last transition in virtual time. */
public record Condition(ConditionType type, boolean status, String reason, String message, long timeMs) {
  /** Kueue api.TruncateConditionMessage (pkg/util/api/api.go): at most 32 KiB, cut with " ...". */
  static String truncate(String message) {
    int limit = 32 * 1024;
    return message.length() <= limit ? message : message.substring(0, limit - 4) + " ...";
  }
}
