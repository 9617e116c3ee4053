package batchsim.core.engine;

import java.util.PriorityQueue;

/**
 * The virtual clock and the future-event list. Single-threaded; time only moves forward, to the time of
 * the event being processed. Events at the same time run in {@link EventKind} order, then in the order
 * they were scheduled, so a run is fully determined by its inputs.
 */
public final class EventLoop {
  private final PriorityQueue<Event> queue = new PriorityQueue<>(1 << 12);
  private long now;
  private long seq;
  private long processed;
  /** Waiting events per kind, so "only samples are left" is one subtraction. */
  private final int[] byKind = new int[EventKind.values().length];

  public long now() {
    return now;
  }

  public long processed() {
    return processed;
  }

  public int pending() {
    return queue.size();
  }

  /** How many waiting events are of {@code kind}. */
  public int pending(EventKind kind) {
    return byKind[kind.ordinal()];
  }

  /** Schedules an event for {@code target}; scheduling in the past is a bug. */
  public void schedule(long time, EventKind kind, EventTarget target, Object payload) {
    if (time < now) {
      throw new IllegalStateException("event " + kind + " at " + time + "ms is before now " + now + "ms");
    }
    queue.add(new Event(time, kind, seq++, target, payload));
    byKind[kind.ordinal()]++;
  }

  /** The next event, left in place; null if none. */
  public Event peek() {
    return queue.peek();
  }

  /** Removes and returns the next event with time at most {@code until}, advancing the clock; null if none. */
  public Event next(long until) {
    Event e = queue.peek();
    if (e == null || e.time > until) {
      return null;
    }
    queue.poll();
    byKind[e.kind.ordinal()]--;
    now = e.time;
    processed++;
    return e;
  }

  /** Moves the clock forward without an event (to the horizon at the end of a run). */
  public void advanceTo(long time) {
    if (time > now) {
      now = time;
    }
  }
}
