package batchsim.core.engine;

/** A scheduled event. Ordered by (time, kind, sequence); its target handles it; the payload is kind-specific. */
public final class Event implements Comparable<Event> {
  final long time;
  final EventKind kind;
  final long seq;
  final EventTarget target;
  final Object payload;

  Event(long time, EventKind kind, long seq, EventTarget target, Object payload) {
    this.time = time;
    this.kind = kind;
    this.seq = seq;
    this.target = target;
    this.payload = payload;
  }

  public long time() {
    return time;
  }

  public EventKind kind() {
    return kind;
  }

  /** Hands the event to its target. */
  public void dispatch() {
    target.handle(this);
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
