package batchsim.scenarios.conformance.volcano;

/** A Volcano case file that cannot be read at all (missing, not YAML, no {@code cases:} list). */
public final class VolcanoCaseFileException extends Exception {
  private static final long serialVersionUID = 1L;

  VolcanoCaseFileException(String message) {
    super(message);
  }

  VolcanoCaseFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
