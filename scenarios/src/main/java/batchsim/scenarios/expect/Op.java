package batchsim.scenarios.expect;

/** A comparison of a measured value (left) with a threshold (right). */
enum Op {
  LE("<="), GE(">="), EQ("=="), NE("!="), LT("<"), GT(">");

  private final String symbol;

  Op(String symbol) {
    this.symbol = symbol;
  }

  String symbol() {
    return symbol;
  }

  boolean holds(double measured, double threshold) {
    switch (this) {
      case LT: return measured < threshold;
      case LE: return measured <= threshold;
      case GT: return measured > threshold;
      case GE: return measured >= threshold;
      case EQ: return measured == threshold;
      case NE: return measured != threshold;
      default: throw new AssertionError(this);
    }
  }
}
