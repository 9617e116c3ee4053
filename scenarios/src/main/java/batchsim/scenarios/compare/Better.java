package batchsim.scenarios.compare;

/** Which way a metric should move: waits and preemptions down, utilization and finished work up. */
public enum Better {
  HIGHER, LOWER, NEITHER;

  /** How much worse {@code value} is than {@code base} (negative when better; 0 when neither). */
  public double worseBy(double base, double value) {
    switch (this) {
      case HIGHER: return base - value;
      case LOWER: return value - base;
      default: return 0;
    }
  }
}
