package batchsim.scenarios.expect;

/** A malformed expectation or metric; {@code offset} is the character (from 0) where the problem is. */
public final class ExpressionException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int offset;

  ExpressionException(int offset, String message) {
    super(message, null, false, false);
    this.offset = offset;
  }

  public int offset() {
    return offset;
  }
}
