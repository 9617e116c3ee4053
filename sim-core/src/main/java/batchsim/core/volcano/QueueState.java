package batchsim.core.volcano;

/** Volcano Queue status.state: only Open queues enqueue and allocate. */
public enum QueueState {
  OPEN("Open"),
  CLOSED("Closed"),
  CLOSING("Closing");

  private final String volcanoName;

  QueueState(String volcanoName) {
    this.volcanoName = volcanoName;
  }

  public String volcanoName() {
    return volcanoName;
  }

  /** Parses Volcano's spelling (Open, Closed, Closing). */
  public static QueueState parse(String text) {
    for (QueueState s : values()) {
      if (s.volcanoName.equals(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of Open, Closed, Closing");
  }
}
