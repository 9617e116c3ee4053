package batchsim.scenarios.conformance.volcano;

import java.util.List;

/**
 * The verdict on one Volcano case or variant, printed as one line in the format of the Kueue runner:
 * {@code PASS id}, {@code FAIL id: first difference (+N more)} or {@code SKIP id: reason}.
 */
public record VolcanoCaseResult(Status status, String id, List<String> details) {
  /** A case's outcome. */
  public enum Status { PASS, FAIL, SKIP }

  public VolcanoCaseResult {
    details = List.copyOf(details);
  }

  static VolcanoCaseResult pass(String id) {
    return new VolcanoCaseResult(Status.PASS, id, List.of());
  }

  static VolcanoCaseResult fail(String id, List<String> differences) {
    return new VolcanoCaseResult(Status.FAIL, id, differences);
  }

  static VolcanoCaseResult skip(String id, String reason) {
    return new VolcanoCaseResult(Status.SKIP, id, List.of(reason));
  }

  public String line() {
    StringBuilder sb = new StringBuilder().append(status).append(' ').append(id);
    if (!details.isEmpty()) {
      sb.append(": ").append(details.get(0));
      if (details.size() > 1) {
        sb.append(" (+").append(details.size() - 1).append(" more)");
      }
    }
    return sb.toString();
  }
}
