package batchsim.core.world;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.metrics.ServingStats;
import batchsim.core.model.ServingSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Scale-to-zero Deployments backed by PodGroups (Volcano style: minMember = replicas).
 *
 * <p>Each scale-up creates a PodGroup named after the Deployment, with a new identity (UID), and submits
 * its pods as one workload. Each scale-down deletes the workload at once and then deletes the PodGroup
 * object, which is slow and may fail; a failed attempt is retried after a delay. The retry carries the
 * identity captured at delete time and deletes only that PodGroup: a newer PodGroup with the same name
 * (from a quick scale-up in between) survives and its pods are scheduled. That is the fix for the bug
 * class where a delayed delete-by-name removed the new PodGroup.
 */
final class ServingChurn implements EventTarget {
  private final SimulationSpec spec;
  private final EventLoop loop;
  private final AdmissionEngine engine;
  private final List<Deployment> deployments = new ArrayList<>();
  /** PodGroup objects by name; more than one while an old one's deletion is still pending. */
  private final Map<String, List<PodGroup>> podGroups = new LinkedHashMap<>();

  ServingChurn(SimulationSpec spec, EventLoop loop, AdmissionEngine engine) {
    this.spec = spec;
    this.loop = loop;
    this.engine = engine;
  }

  private static final class Deployment {
    final ServingSpec spec;
    final SplittableRandom random;
    int scaleUps;
    long ran;
    long deleteAttempts;
    long deleteRetries;
    long newerKept;
    PodGroup current;
    boolean scaledUp;

    Deployment(ServingSpec spec, SplittableRandom random) {
      this.spec = spec;
      this.random = random;
    }
  }

  private static final class PodGroup {
    final String name;
    final long uid;
    /** The engine's workload, or null when its queue is unknown. */
    final Object workload;

    PodGroup(String name, long uid, Object workload) {
      this.name = name;
      this.uid = uid;
      this.workload = workload;
    }
  }

  private record Change(Deployment d, PodGroup pg) {
    @Override
    public String toString() {
      return d.spec.name() + (pg == null ? "" : "#" + pg.uid);
    }
  }

  void start(SplittableRandom root) {
    for (ServingSpec s : spec.serving()) {
      Deployment d = new Deployment(s, root.split());
      deployments.add(d);
      loop.schedule(s.startMs(), EventKind.SCALE_UP, this, new Change(d, null));
    }
  }

  @Override
  public void handle(Event e) {
    Change c = (Change) e.payload();
    Deployment d = c.d();
    switch (e.kind()) {
      case SCALE_UP -> {
        d.scaleUps++;
        ServingSpec s = d.spec;
        WorkloadSpec w = new WorkloadSpec(s.name() + "-" + d.scaleUps, s.name(), s.localQueue(), loop.now(),
            s.priority(), null, List.of(s.podSet()), Long.MAX_VALUE / 4);
        Object wl = engine.submitServing(w);
        PodGroup pg = new PodGroup(s.name(), d.scaleUps, wl);
        d.current = pg;
        d.scaledUp = true;
        if (wl != null) {
          podGroups.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(pg);
        }
        loop.schedule(loop.now() + s.up().sample(d.random), EventKind.SCALE_DOWN, this, new Change(d, pg));
      }
      case SCALE_DOWN -> {
        PodGroup pg = c.pg();
        d.scaledUp = false;
        if (pg.workload != null) {
          if (engine.servingRan(pg.workload)) {
            d.ran++;
          }
          engine.deleteServing(pg.workload);
        }
        loop.schedule(loop.now() + d.spec.deleteDelay().sample(d.random), EventKind.POD_GROUP_DELETE, this, c);
        if (d.scaleUps < d.spec.cycles()) {
          loop.schedule(loop.now() + d.spec.down().sample(d.random), EventKind.SCALE_UP, this, new Change(d, null));
        }
      }
      case POD_GROUP_DELETE -> {
        d.deleteAttempts++;
        if (d.random.nextDouble() < d.spec.deleteFailureProbability()) {
          d.deleteRetries++;
          loop.schedule(loop.now() + d.spec.retryDelay().sample(d.random), EventKind.POD_GROUP_DELETE, this, c);
          return;
        }
        delete(d, c.pg());
      }
      default -> throw new IllegalStateException(e.toString());
    }
  }

  /** Deletes the PodGroup with the identity captured at delete time, and nothing else. */
  private void delete(Deployment d, PodGroup target) {
    List<PodGroup> same = podGroups.get(target.name);
    if (same == null) {
      return;
    }
    boolean newer = false;
    for (PodGroup pg : same) {
      newer |= pg.uid > target.uid;
    }
    if (newer) {
      d.newerKept++;
    }
    same.removeIf(pg -> pg.uid == target.uid);
  }

  /**
   * Invariant: a Deployment that is scaled up has its newest PodGroup and that PodGroup's workload
   * (a deletion meant for an older PodGroup never removed them).
   */
  List<String> checkInvariants() {
    List<String> out = new ArrayList<>();
    for (Deployment d : deployments) {
      PodGroup cur = d.current;
      if (!d.scaledUp || cur == null || cur.workload == null) {
        continue;
      }
      if (!podGroups.getOrDefault(cur.name, List.of()).contains(cur)) {
        out.add("PodGroup " + cur.name + "#" + cur.uid + " of a scaled-up Deployment was deleted");
      } else if (engine.servingDeleted(cur.workload)) {
        out.add("PodGroup " + cur.name + "#" + cur.uid + " exists but its workload was deleted");
      }
    }
    return out;
  }

  /** The bug this model guards against, for tests: delete whatever PodGroup now carries the name. */
  void deleteNewestByName(String name) {
    List<PodGroup> same = podGroups.get(name);
    if (same != null && !same.isEmpty()) {
      same.remove(same.size() - 1);
    }
  }

  List<ServingStats> stats() {
    List<ServingStats> out = new ArrayList<>();
    for (Deployment d : deployments) {
      out.add(new ServingStats(d.spec.name(), d.scaleUps, d.ran, d.deleteAttempts, d.deleteRetries, d.newerKept));
    }
    return out;
  }
}
