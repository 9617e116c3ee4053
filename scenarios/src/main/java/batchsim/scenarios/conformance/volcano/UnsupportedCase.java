package batchsim.scenarios.conformance.volcano;

/** A case (or part of one) the runner cannot reproduce: SKIP when unsupported, FAIL when malformed. */
final class UnsupportedCase extends RuntimeException {
  private static final long serialVersionUID = 1L;
  final boolean malformed;

  private UnsupportedCase(String message, boolean malformed) {
    super(message);
    this.malformed = malformed;
  }

  static UnsupportedCase unsupported(String message) {
    return new UnsupportedCase(message, false);
  }

  static UnsupportedCase invalid(String message) {
    return new UnsupportedCase(message, true);
  }
}
