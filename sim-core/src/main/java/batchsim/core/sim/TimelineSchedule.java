package batchsim.core.sim;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.TimelineEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;

/**
 * The scenario's timeline on the event loop, shared by both engines: every event draws from its own random
 * stream (split in scenario order) and a recurring one is rescheduled after it fires, until its end.
 */
final class TimelineSchedule {
  private record Occurrence(int index, TimelineEvent event) {
    @Override
    public String toString() {
      return event.action().toString();
    }
  }

  private final EventLoop loop;
  private final List<SplittableRandom> random = new ArrayList<>();

  TimelineSchedule(EventLoop loop) {
    this.loop = loop;
  }

  void start(List<TimelineEvent> timeline, SplittableRandom root) {
    for (int i = 0; i < timeline.size(); i++) {
      random.add(root.split());
      loop.schedule(timeline.get(i).atMs(), EventKind.TIMELINE, new Occurrence(i, timeline.get(i)));
    }
  }

  /** Applies a TIMELINE event's action with its stream, then schedules its next occurrence when one is due. */
  void fire(Event e, BiConsumer<ClusterAction, SplittableRandom> apply) {
    Occurrence o = (Occurrence) e.payload();
    TimelineEvent ev = o.event();
    SplittableRandom r = random.get(o.index());
    apply.accept(ev.action(), r);
    if (ev.every() != null) {
      long next = loop.now() + Math.max(1, ev.every().sample(r));
      if (next < ev.untilMs()) {
        loop.schedule(next, EventKind.TIMELINE, o);
      }
    }
  }
}
