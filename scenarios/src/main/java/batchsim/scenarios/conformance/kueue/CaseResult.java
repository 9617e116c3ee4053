package batchsim.scenarios.conformance.kueue;

import java.util.List;

/**
 * The verdict on one case or variant, printed as one line: {@code PASS S01 name},
 * {@code FAIL S03/v1 name: first difference} or {@code SKIP K1 name: reason}.
 *
 * @param details every difference found (FAIL), or the reason (SKIP); empty for PASS
 * @param caveats what the runner could not check (the case may still pass)
 */
public record CaseResult(Status status, String id, String name, List<String> details, List<String> caveats) {
  /** A case's outcome. */
  public enum Status { PASS, FAIL, SKIP }

  static CaseResult pass(ConformanceCase c, List<String> caveats) {
    return new CaseResult(Status.PASS, c.id(), c.name(), List.of(), List.copyOf(caveats));
  }

  static CaseResult fail(ConformanceCase c, List<String> differences, List<String> caveats) {
    return new CaseResult(Status.FAIL, c.id(), c.name(), List.copyOf(differences), List.copyOf(caveats));
  }

  static CaseResult skip(ConformanceCase c, String reason) {
    return new CaseResult(Status.SKIP, c.id(), c.name(), List.of(reason), List.of());
  }

  /** The report line. */
  public String line() {
    StringBuilder sb = new StringBuilder().append(status).append(' ').append(id);
    if (!name.isEmpty()) {
      sb.append(' ').append(name);
    }
    if (!details.isEmpty()) {
      sb.append(": ").append(details.get(0));
      if (details.size() > 1) {
        sb.append(" (+").append(details.size() - 1).append(" more)");
      }
    }
    if (!caveats.isEmpty()) {
      sb.append(" (caveat: ").append(String.join("; ", caveats)).append(')');
    }
    return sb.toString();
  }
}
