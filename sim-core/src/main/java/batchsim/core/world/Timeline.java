package batchsim.core.world;

import batchsim.core.cluster.Node;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.model.ActionRefused;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.NodeAction;
import batchsim.core.model.TimelineEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The scenario's timeline: every event draws from its own random stream (split in scenario order) and a
 * recurring one is rescheduled after it fires, until its end. Node actions and arrival scaling are the
 * world's and work under every engine; quota, preemption and queue actions go to the engine.
 */
final class Timeline implements EventTarget {
  private record Occurrence(int index, TimelineEvent event) {
    @Override
    public String toString() {
      return event.action().toString();
    }
  }

  private final EventLoop loop;
  private final Nodes nodes;
  private final NamedNodeActions named;
  private final Arrivals arrivals;
  private final AdmissionEngine engine;
  private final List<SplittableRandom> random = new ArrayList<>();

  Timeline(EventLoop loop, Nodes nodes, Arrivals arrivals, AdmissionEngine engine) {
    this.loop = loop;
    this.nodes = nodes;
    this.named = new NamedNodeActions(nodes);
    this.arrivals = arrivals;
    this.engine = engine;
  }

  void start(List<TimelineEvent> timeline, SplittableRandom root) {
    for (int i = 0; i < timeline.size(); i++) {
      random.add(root.split());
      loop.schedule(timeline.get(i).atMs(), EventKind.TIMELINE, this, new Occurrence(i, timeline.get(i)));
    }
  }

  /** Applies a TIMELINE event's action with its stream, then schedules its next occurrence when one is due. */
  @Override
  public void handle(Event e) {
    Occurrence o = (Occurrence) e.payload();
    TimelineEvent ev = o.event();
    SplittableRandom r = random.get(o.index());
    try {
      apply(ev.action(), r);
    } catch (ActionRefused refused) {
      throw new TimelineError(ev.source(), loop.now(), refused.getMessage());
    }
    if (ev.every() != null) {
      long next = loop.now() + Math.max(1, ev.every().sample(r));
      if (next < ev.untilMs()) {
        loop.schedule(next, EventKind.TIMELINE, this, o);
      }
    }
  }

  private void apply(ClusterAction action, SplittableRandom random) {
    if (action instanceof ClusterAction.FailNodes a) {
      for (Node n : nodes.pick(a.pool(), a.count(), a.nodes(), n -> !n.failed() && !n.removed())) {
        nodes.fail(n, a.repairAfter() == null ? -1 : a.repairAfter().sample(random));
      }
    } else if (action instanceof ClusterAction.CordonNodes a) {
      for (Node n : nodes.pick(a.pool(), a.count(), a.nodes(), n -> !n.cordoned() && !n.removed())) {
        nodes.cordon(n, a.drain());
      }
    } else if (action instanceof ClusterAction.UncordonNodes a) {
      for (Node n : nodes.pick(a.pool(), a.count(), a.nodes(), n -> n.cordoned() && !n.removed())) {
        nodes.uncordon(n);
      }
    } else if (action instanceof ClusterAction.AddNodes a) {
      nodes.addNodes(nodes.poolIndex(a.pool()), a.count());
    } else if (action instanceof ClusterAction.RemoveNodes a) {
      for (Node n : nodes.newest(a.pool(), a.count())) {
        nodes.removeNode(n);
      }
    } else if (action instanceof NodeAction a) {
      named.apply(a);
    } else if (action instanceof ClusterAction.ScaleArrivals a) {
      arrivals.scale(a.workloadClass(), a.factor());
    } else if (action instanceof ClusterAction.RestartKueue a) {
      if (!engine.restartController(a.downFor() == null ? 0 : a.downFor().sample(random))) {
        throw new IllegalStateException(action + " is not supported by this admission engine");
      }
    } else if (!engine.apply(action)) {
      throw new IllegalStateException(action + " is not supported by this admission engine");
    }
    engine.timelineActionApplied();
  }
}
