package batchsim.core.world;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The run's workload sources, shared by both engines' simulations: opened in scenario order with one random
 * stream each (split first from the root seed, so the same scenario and seed give the same arrivals whatever
 * the engine), and pulled lazily — a source's next arrival is scheduled when its previous one is taken.
 */
final class Arrivals implements EventTarget {
  /** The payload of an ARRIVAL event. */
  record Arrival(int source, WorkloadSpec spec) {
    @Override
    public String toString() {
      return spec.id();
    }
  }

  private final EventLoop loop;
  private final List<WorkloadSourceSpec> specs;
  private final List<WorkloadSource> sources = new ArrayList<>();
  private final Consumer<WorkloadSpec> arrive;

  /** @param arrive hears each workload as it arrives */
  Arrivals(EventLoop loop, List<WorkloadSourceSpec> specs, Consumer<WorkloadSpec> arrive) {
    this.loop = loop;
    this.specs = specs;
    this.arrive = arrive;
  }

  /** Opens every source (one split of {@code root} each, in order) and schedules its first arrival. */
  void open(SplittableRandom root) {
    for (WorkloadSourceSpec s : specs) {
      sources.add(s.open(root.split()));
      pull(sources.size() - 1);
    }
  }

  /** A workload arrives; the next arrival of the same source is scheduled first. */
  @Override
  public void handle(Event e) {
    Arrival a = (Arrival) e.payload();
    pull(a.source());
    arrive.accept(a.spec());
  }

  private void pull(int source) {
    WorkloadSpec w = sources.get(source).next();
    if (w != null) {
      loop.schedule(Math.max(w.createdMs(), loop.now()), EventKind.ARRIVAL, this, new Arrival(source, w));
    }
  }

  /** ScaleArrivals: the class's source divides its next gaps by {@code factor}. */
  void scale(String workloadClass, double factor) {
    for (int i = 0; i < specs.size(); i++) {
      if (specs.get(i).name().equals(workloadClass)) {
        sources.get(i).scaleRate(factor);
      }
    }
  }

  void close() {
    for (WorkloadSource s : sources) {
      s.close();
    }
  }
}
