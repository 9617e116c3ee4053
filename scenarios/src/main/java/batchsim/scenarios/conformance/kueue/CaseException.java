package batchsim.scenarios.conformance.kueue;

/**
 * A case the runner cannot run: malformed (reported as FAIL) or using something not supported yet (SKIP).
 */
final class CaseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean unsupported;

  private CaseException(String message, boolean unsupported) {
    super(message);
    this.unsupported = unsupported;
  }

  /** The case is malformed: the runner reports it as a failure. */
  static CaseException invalid(String message) {
    return new CaseException(message, false);
  }

  /** The case uses something the engine or runner does not model yet: the runner skips it. */
  static CaseException unsupported(String message) {
    return new CaseException(message, true);
  }

  boolean isUnsupported() {
    return unsupported;
  }
}
