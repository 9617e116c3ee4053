package batchsim.core.volcano;

/** Volcano PodGroup phases. */
public enum PodGroupPhase {
  PENDING("Pending"),
  INQUEUE("Inqueue"),
  RUNNING("Running"),
  UNKNOWN("Unknown"),
  COMPLETED("Completed");

  private final String volcanoName;

  PodGroupPhase(String volcanoName) {
    this.volcanoName = volcanoName;
  }

  public String volcanoName() {
    return volcanoName;
  }

  public static PodGroupPhase parse(String text) {
    for (PodGroupPhase p : values()) {
      if (p.volcanoName.equals(text)) {
        return p;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of Pending, Inqueue, Running, Unknown, Completed");
  }

  @Override
  public String toString() {
    return volcanoName;
  }
}
