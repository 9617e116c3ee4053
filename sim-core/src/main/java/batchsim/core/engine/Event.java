package batchsim.core.engine;

/** A scheduled event. Ordered by (time, kind, sequence); the payload is kind-specific. */
public final class Event implements Comparable<Event> {
  final long time;
  final EventKind kind;
  final long seq;
  final Object payload;

  Event(long time, EventKind kind, long seq, Object payload) {
    this.time = time;
    this.kind = kind;
    this.seq = seq;
    this.payload = payload;
  }

  public long time() {
    return time;
  }

  public EventKind kind() {
    return kind;
  }

  public Object payload() {
    return payload;
  }

  @Override
  public int compareTo(Event o) {
    int c = Long.compare(time, o.time);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(kind.ordinal(), o.kind.ordinal());
    return c != 0 ? c : Long.compare(seq, o.seq);
  }

  @Override
  public String toString() {
    return time + "ms " + kind + " " + payload;
  }
}
