package batchsim.scenarios.conformance.kueue;

/** The case file cannot be read or is not a case file at all (bad YAML, no documents, broken fixtures). */
public final class CaseFileException extends Exception {
  private static final long serialVersionUID = 1L;

  public CaseFileException(String message, Throwable cause) {
    super(message, cause);
  }

  public CaseFileException(String message) {
    super(message);
  }
}
