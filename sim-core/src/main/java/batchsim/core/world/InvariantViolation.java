package batchsim.core.world;

import java.util.List;

/** An engine invariant broke during a checked run; carries what broke and the events that led there. */
public final class InvariantViolation extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final List<String> violations;
  private final List<String> recentEvents;

  InvariantViolation(long timeMs, List<String> violations, List<String> recentEvents) {
    super("invariant violated at " + timeMs + "ms: " + String.join("; ", violations));
    this.violations = List.copyOf(violations);
    this.recentEvents = List.copyOf(recentEvents);
  }

  public List<String> violations() {
    return violations;
  }

  public List<String> recentEvents() {
    return recentEvents;
  }
}
