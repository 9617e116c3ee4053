package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.FailureModel;
import batchsim.core.model.LongDistribution;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.RequeuingTimestamp;
import batchsim.core.model.Resources;
import batchsim.core.model.ServingSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.WaitForPodsReady;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.Distribution;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Binds what happens to the cluster while it runs: the {@code events:} timeline, per-pool
 * {@code failures:} models, {@code serving:} scale-to-zero Deployments, and
 * {@code kueue.waitForPodsReady}. It runs after the rest of the scenario is bound and checked, so every
 * reference (pool, queue, flavor, class, resource) is validated against names that exist.
 */
final class TimelineBinder {
  private final Problems problems;
  private final Spec.Scenario scenario;
  private final ActionContext ctx;
  /** Every action family; each owns its {@code events:} keys. */
  private final List<ActionFamily> families;
  private final Set<String> pools;
  private final Set<String> localQueues;

  /** The bound parts; {@link #applyTo} puts them into a SimulationSpec. */
  record Timeline(List<TimelineEvent> events, List<FailureModel> failures, List<Spec.PodSet> servingPodSets,
      List<ServingSpec> serving, WaitForPodsReady waitForPodsReady, RequeuingTimestamp requeuingTimestamp) {

    SimulationSpec applyTo(SimulationSpec s) {
      List<ServingSpec> resolved = new ArrayList<>();
      for (int i = 0; i < serving.size(); i++) {
        ServingSpec v = serving.get(i);
        Spec.PodSet ps = servingPodSets.get(i);
        long[] req = new long[s.resources().size()];
        for (Spec.Amount a : ps.requests()) {
          req[s.resources().require(a.resource().text())] = a.value();
        }
        PodSetSpec podSet = new PodSetSpec("main", ps.count(), PodSetSpec.NO_MIN_COUNT, Resources.wrap(req),
            ps.nodeSelector(), ps.tolerations());
        resolved.add(new ServingSpec(v.name(), v.localQueue(), v.priority(), podSet, v.startMs(), v.up(), v.down(),
            v.cycles(), v.deleteDelay(), v.deleteFailureProbability(), v.retryDelay()));
      }
      var kueue = waitForPodsReady == null ? s.kueue()
          : s.kueue().withWaitForPodsReady(waitForPodsReady).withPodsReadyRequeuingTimestamp(requeuingTimestamp);
      return new SimulationSpec(s.name(), s.seed(), s.horizonMs(), s.resources(), s.nodePools(), s.flavors(),
          s.cohorts(), s.clusterQueues(), s.localQueues(), s.priorityClasses(), kueue, s.podScheduling(),
          s.workloadSources(), s.sampleIntervalMs(), List.copyOf(events), List.copyOf(failures), List.copyOf(resolved),
          s.topologies()); // [TAS] keep the Topology objects
    }
  }

  /** The queue objects declared at the top of the scenario (as "Kind name"); implicit cohorts are no objects. */
  private Set<String> objectsAtStart() {
    Set<String> out = new LinkedHashSet<>();
    scenario.clusterQueues().forEach(q -> out.add("ClusterQueue " + (q.name() == null ? "" : q.name().text())));
    scenario.localQueues().forEach(q -> out.add("LocalQueue " + q.fullName()));
    scenario.cohorts().forEach(c -> out.add("Cohort " + (c.name() == null ? "" : c.name().text())));
    scenario.flavors().forEach(f -> out.add("ResourceFlavor " + (f.name() == null ? "" : f.name().text())));
    scenario.topologies().forEach(t -> out.add("Topology " + t.name()));
    out.removeAll(scenario.timelineObjects().createdOnly);
    return out;
  }

  /** waitForPodsReady.requeuingStrategy.timestamp, read with the rest of waitForPodsReady. */
  private RequeuingTimestamp requeuingTimestamp;

  private TimelineBinder(Node root, Spec.Scenario scenario, Problems problems) {
    this.scenario = scenario;
    this.problems = problems;
    this.ctx = new ActionContext(root, scenario, problems, NodeNames.growingPools(root));
    this.families = families(ctx);
    this.pools = ctx.pools;
    this.localQueues = ctx.localQueues;
  }

  static Timeline bind(Node root, Spec.Scenario scenario, Problems problems) {
    return new TimelineBinder(root, scenario, problems).bind(root);
  }

  private Timeline bind(Node root) {
    MapNode m = root instanceof MapNode map ? map : null;
    List<TimelineEvent> events = new ArrayList<>();
    List<FailureModel> failures = new ArrayList<>();
    List<Spec.PodSet> servingPodSets = new ArrayList<>();
    List<ServingSpec> serving = new ArrayList<>();
    WaitForPodsReady wfpr = null;
    RequeuingTimestamp requeuingTimestamp = null;
    if (m == null) {
      return new Timeline(events, failures, servingPodSets, serving, null, null);
    }
    VolcanoBinder.queueNames(m, ctx);
    Node ev = m.get("events");
    if (ev != null) {
      List<Node> nodes = new ArrayList<>();
      for (Node n : Fields.items(ev, problems)) {
        TimelineEvent e = event(n);
        if (e != null) {
          events.add(e);
          nodes.add(n);
        }
      }
      TimelineOrder.check(events, nodes, objectsAtStart(), problems);
    }
    ElasticBinder.classPatterns(root, scenario, problems, events);
    Node fm = m.get("failures");
    if (fm != null) {
      for (Node n : Fields.items(fm, problems)) {
        Fields f = Fields.of(n, problems, "pool", "timeBetweenFailures", "repairTime");
        ScalarNode pool = f.reference("pool", pools, "node pool");
        LongDistribution tbf = dist(f.required("timeBetweenFailures"));
        LongDistribution repair = dist(f.required("repairTime"));
        if (pool != null && tbf != null && repair != null) {
          failures.add(new FailureModel(pool.text(), tbf, repair));
        }
      }
    }
    Node sv = m.get("serving");
    if (sv != null) {
      Set<String> names = new LinkedHashSet<>();
      for (Node n : Fields.items(sv, problems)) {
        Fields f = Fields.of(n, problems, "name", "queue", "priority", "replicas", "requests", "nodeSelector",
            "start", "up", "down", "cycles", "deleteDelay", "deleteFailureProbability", "retryDelay");
        ScalarNode name = f.requiredName("name");
        if (name != null && !names.add(name.text())) {
          problems.at(name, "duplicate serving Deployment name '" + name.text() + "'");
        }
        ScalarNode queue = f.reference("queue", localQueues, "LocalQueue");
        int replicas = f.int32("replicas", 1, 1);
        List<Spec.Amount> requests = ctx.kube.amounts(f.get("requests"));
        for (Spec.Amount a : requests) {
          if (!scenario.resourceNames().contains(a.resource().text())) {
            problems.at(a.resource(), "resource '" + a.resource().text() + "' appears nowhere else in the scenario"
                + " (no node or quota has it)");
          }
        }
        LongDistribution up = dist(f.required("up"));
        LongDistribution down = dist(f.required("down"));
        LongDistribution deleteDelay = f.has("deleteDelay") ? dist(f.get("deleteDelay")) : LongDistribution.constant(0);
        LongDistribution retry = f.has("retryDelay") ? dist(f.get("retryDelay")) : LongDistribution.constant(10_000);
        double p = f.decimal("deleteFailureProbability", 0, 0);
        if (p > 1) {
          problems.at(f.get("deleteFailureProbability"), "must be a probability between 0 and 1");
        }
        if (name != null && queue != null && up != null && down != null && deleteDelay != null && retry != null) {
          servingPodSets.add(new Spec.PodSet("main", replicas, PodSetSpec.NO_MIN_COUNT, requests,
              f.stringMap("nodeSelector"), List.of()));
          serving.add(new ServingSpec(name.text(), queue.text(), f.int32("priority", 0, Integer.MIN_VALUE), null,
              f.duration("start", 0), up, down, f.int32("cycles", 1, 1), deleteDelay, Math.min(p, 1), retry));
        }
      }
    }
    Node kueue = m.get("kueue");
    if (kueue instanceof MapNode km && km.get("waitForPodsReady") != null) {
      wfpr = waitForPodsReady(km.get("waitForPodsReady"));
      requeuingTimestamp = this.requeuingTimestamp;
    }
    return new Timeline(events, failures, servingPodSets, serving, wfpr, requeuingTimestamp);
  }

  private WaitForPodsReady waitForPodsReady(Node n) {
    WaitForPodsReady d = WaitForPodsReady.DEFAULT;
    Fields f = Fields.of(n, problems, "enable", "timeout", "recoveryTimeout", "blockAdmission", "requeuingStrategy");
    long timeout = f.duration("timeout", d.timeoutMs());
    Fields r = f.map("requeuingStrategy", "timestamp", "backoffBaseSeconds", "backoffMaxSeconds", "backoffLimitCount");
    // Kueue: the queue order after a PodsReadyTimeout requeue (Eviction: the eviction time; Creation).
    requeuingTimestamp = r.enumeration("timestamp", RequeuingTimestamp.class, RequeuingTimestamp.EVICTION);
    return new WaitForPodsReady(f.bool("enable", true), timeout, f.duration("recoveryTimeout", timeout),
        r.integer("backoffBaseSeconds", d.backoffBaseMs() / 1000, 0) * 1000,
        r.integer("backoffMaxSeconds", d.backoffMaxMs() / 1000, 0) * 1000,
        r.int32("backoffLimitCount", -1, 0), f.bool("blockAdmission", false));
  }

  /** Every action family; each owns its {@code events:} keys. */
  static List<ActionFamily> families(ActionContext ctx) {
    return List.of(new WorldActions(ctx), new QueueActions(ctx), new QueueObjectActions(ctx),
        new WorkloadActions(ctx), new VolcanoActions(ctx), new NodeActions(ctx), new MultiKueueActions(ctx));
  }

  /** Every {@code events:} action key, in family order. */
  static final List<String> ACTION_KEYS = concat(WorldActions.KEYS, QueueActions.KEYS, QueueObjectActions.KEYS,
      WorkloadActions.KEYS, VolcanoActions.KEYS, NodeActions.KEYS, MultiKueueActions.KEYS);

  @SafeVarargs
  private static List<String> concat(List<String>... lists) {
    List<String> out = new ArrayList<>();
    for (List<String> l : lists) {
      out.addAll(l);
    }
    return List.copyOf(out);
  }

  private TimelineEvent event(Node n) {
    List<String> actions = ACTION_KEYS;
    List<String> keys = new ArrayList<>(List.of("at", "every", "until"));
    keys.addAll(actions);
    Fields f = Fields.of(n, problems, keys.toArray(new String[0]));
    if (!f.present()) {
      return null;
    }
    long at = f.duration("at", 0);
    LongDistribution every = f.has("every") ? dist(f.get("every")) : null;
    if (neverAdvances(every)) { // as a workload class's arrivals every 0s: it would repeat without end
      problems.at(f.get("every"), "every 0s never advances time; give a positive interval, or leave every out for "
          + "a one-off event");
      return null;
    }
    long until = f.has("until") ? f.duration("until", Long.MAX_VALUE) : Long.MAX_VALUE;
    String kind = f.exactlyOne("event action", actions.toArray(new String[0]));
    if (kind == null) {
      return null;
    }
    ClusterAction action = null;
    for (ActionFamily family : families) {
      if (family.keys().contains(kind)) {
        action = family.bind(kind, f);
      }
    }
    return action == null ? null : new TimelineEvent(at, every, until, action, n.location() + ": " + n.path());
  }

  /** An interval that is always 0. */
  private static boolean neverAdvances(LongDistribution every) {
    return every instanceof Distribution.Constant c && c.value() == 0
        || every instanceof Distribution.Uniform u && u.max() == 0;
  }

  /** A duration (constant) or a distribution block, as for workload runtimes. */
  private LongDistribution dist(Node n) {
    return ctx.dist(n);
  }

}
