package batchsim.core.volcano;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The Volcano admission engine: queues (flat or hierarchical), PodGroups and their pods, and the scheduling
 * session Volcano runs every schedule period — snapshot, plugins, the configured actions in order, PodGroup
 * phase update. The engine never schedules events: binds and evictions are reported to the {@link VolcanoHost},
 * which tells the engine when a bind has completed, a pod finished, or an evicted pod is gone.
 *
 * <p>Deterministic: sessions iterate PodGroups by id, nodes and queues in declaration order, and every
 * tie Volcano leaves to chance (equal node scores) goes to the node declared first.
 */
public final class VolcanoEngine {
  final Dims dims;
  final VolcanoConfig config;
  private final List<Queue> queues = new ArrayList<>();
  private final Map<String, Queue> queuesByName = new LinkedHashMap<>();
  private final List<Node> nodes = new ArrayList<>();
  private final Map<String, Node> nodesByName = new LinkedHashMap<>();
  /** Node order: declaration, then joining order (ties Volcano leaves to chance go to the lower). */
  private int nextNodeIndex;
  private final TreeMap<String, PodGroup> podGroups = new TreeMap<>();
  private final Map<String, Pod> pods = new LinkedHashMap<>();
  private final LongSupplier clock;
  private VolcanoHost host = VolcanoHost.NONE;
  boolean checked;
  private long sessions;
  /** The actions the last session considered configured. */
  Set<String> configuredActions;
  /** Admissions the audit found over a capability (should stay empty). */
  final List<HierarchyInvariant.Violation> admissionViolations = new ArrayList<>();
  /** Queues whose capability an update lowered: their allocated work may stay above it until it drains. */
  final Set<String> capabilityLowered = new java.util.HashSet<>();
  /** Where the next node search starts (Volcano's lastProcessedNodeIndex). */
  long lastProcessedNodeIndex;

  /**
   * @param resources the simulation's resource names (pod requests and node capacities are vectors over them)
   * @param queueSpecs queues; {@code root} and {@code default} are added when absent, as Volcano's cache does
   */
  public VolcanoEngine(ResourceSpace resources, VolcanoConfig config, List<VolcanoQueueSpec> queueSpecs,
      List<VolcanoNodeSpec> nodeSpecs, LongSupplier clock) {
    this.config = config;
    this.clock = clock;
    this.configuredActions = config.configuredActions();
    List<String> extra = new ArrayList<>();
    for (VolcanoQueueSpec q : queueSpecs) {
      extra.addAll(q.capability().amounts().keySet());
      extra.addAll(q.deserved().amounts().keySet());
      extra.addAll(q.guarantee().amounts().keySet());
    }
    this.dims = new Dims(resources, extra);
    for (List<PluginSpec> tier : config.tiers()) {
      for (PluginSpec p : tier) {
        Plugin.create(p); // fails early on an unknown plugin
      }
    }
    for (VolcanoQueueSpec q : queueSpecs) {
      addQueue(q);
    }
    if (!queuesByName.containsKey(Queue.ROOT)) {
      addQueue(VolcanoQueueSpec.of(Queue.ROOT).withReclaimable(false));
    }
    if (!queuesByName.containsKey(Queue.DEFAULT)) {
      addQueue(VolcanoQueueSpec.of(Queue.DEFAULT));
    }
    for (VolcanoNodeSpec n : nodeSpecs) {
      addNode(n);
    }
  }

  /** A node joins the cluster (Ready); it comes last in node order. */
  public void addNode(VolcanoNodeSpec n) {
    if (nodesByName.containsKey(n.name())) {
      throw new IllegalArgumentException("duplicate node " + n.name());
    }
    Node node = new Node(n, nextNodeIndex++, dims.allocatable(n.allocatable()));
    nodes.add(node);
    nodesByName.put(n.name(), node);
  }

  /**
   * A node leaves the cluster. Report its bound pods failed ({@link #podFailed}) first; evicted pods still
   * terminating there finish their eviction as usual.
   */
  public void removeNode(String name) {
    Node n = nodesByName.get(name);
    if (n == null) {
      throw new IllegalArgumentException("unknown node " + name);
    }
    for (Pod p : n.pods.values()) {
      if (p.state != PodState.RELEASING) {
        throw new IllegalStateException("node " + name + " still runs pod " + p.id());
      }
    }
    nodesByName.remove(name);
    nodes.remove(n);
  }

  private void addQueue(VolcanoQueueSpec spec) {
    if (queuesByName.containsKey(spec.name())) {
      throw new IllegalArgumentException("duplicate queue " + spec.name());
    }
    Queue q = new Queue(spec, queues.size());
    queues.add(q);
    queuesByName.put(q.name, q);
  }

  public void setHost(VolcanoHost host) {
    this.host = host;
  }

  /**
   * Audits every admission against the queue tree (see {@link HierarchyInvariant}); costs a pass over all
   * PodGroups per session that admits anything, so it is off unless asked for (tests, checked runs).
   */
  public VolcanoEngine checked(boolean on) {
    this.checked = on;
    return this;
  }

  public VolcanoConfig config() {
    return config;
  }

  /** Resource names the engine ignores because Volcano would (not Kubernetes resource names). */
  public Set<String> ignoredResources() {
    return Collections.unmodifiableSet(dims.ignored());
  }

  // ------------------------------------------------------------------ objects

  /** Creates a PodGroup in phase Pending. */
  public PodGroup addPodGroup(PodGroupSpec spec) {
    return addPodGroup(spec, PodGroupPhase.PENDING);
  }

  /** Creates a PodGroup in the given phase (test and conformance setups start groups Inqueue or Running). */
  public PodGroup addPodGroup(PodGroupSpec spec, PodGroupPhase phase) {
    if (podGroups.containsKey(spec.id())) {
      throw new IllegalArgumentException("duplicate PodGroup " + spec.id());
    }
    Queue q = queuesByName.get(spec.queue() == null ? Queue.DEFAULT : spec.queue());
    if (q == null) {
      throw new IllegalArgumentException("PodGroup " + spec.id() + ": unknown queue " + spec.queue());
    }
    PodGroup pg = new PodGroup(spec, q, spec.minResources() == null ? null : dims.fromList(spec.minResources()), phase);
    podGroups.put(spec.id(), pg);
    return pg;
  }

  /** Creates a pending pod of an existing PodGroup. */
  public Pod addPod(PodSpec spec) {
    if (pods.containsKey(spec.id())) {
      throw new IllegalArgumentException("duplicate pod " + spec.id());
    }
    PodGroup pg = podGroups.get(spec.podGroup());
    if (pg == null) {
      throw new IllegalArgumentException("pod " + spec.id() + ": unknown PodGroup " + spec.podGroup());
    }
    Pod p = new Pod(spec, pg, dims.request(spec.request()));
    pg.pods.add(p);
    pods.put(spec.id(), p);
    return p;
  }

  /** Setup: the pod is already bound to {@code node} and running there. */
  public Pod addRunningPod(PodSpec spec, String node) {
    Pod p = addPod(spec);
    Node n = nodesByName.get(node);
    if (n == null) {
      throw new IllegalArgumentException("pod " + spec.id() + ": unknown node " + node);
    }
    p.state = PodState.RUNNING;
    p.node = n;
    n.pods.put(p.id(), p);
    return p;
  }

  /** Submits a workload to the Volcano queue its {@code localQueue} names (see {@link #submit(WorkloadSpec, String)}). */
  public PodGroup submit(WorkloadSpec w) {
    return submit(w, w.localQueue());
  }

  /**
   * Submits a workload as one PodGroup in {@code queue}: one pod per replica, named
   * {@code <workload id>-<pod set>-<i>} with the pod set as its role; minMember = all pods, minResources = all
   * requests (the gang must fit whole).
   */
  public PodGroup submit(WorkloadSpec w, String queue) {
    if (config.hierarchical() && hasQueue(queue) && !isLeafQueue(queue)) {
      // Volcano's job admission webhook: with hierarchical queues, jobs go to leaf queues only.
      throw new IllegalArgumentException("workload " + w.id() + ": queue " + queue
          + " has child queues; with hierarchical queues jobs go to leaf queues only");
    }
    ResourceSpace space = dims.space();
    int total = 0;
    long[] sum = new long[space.size()];
    for (PodSetSpec ps : w.podSets()) {
      total += ps.count();
      for (int r = 0; r < space.size(); r++) {
        sum[r] += ps.perPod().get(r) * (long) ps.count();
      }
    }
    TreeMap<String, Long> min = new TreeMap<>();
    for (int r = 0; r < space.size(); r++) {
      if (sum[r] != 0 && Dims.isVolcanoResource(space.name(r)) && !space.name(r).equals(ResourceSpace.PODS)) {
        min.put(space.name(r), sum[r]);
      }
    }
    PodGroup pg = addPodGroup(new PodGroupSpec(w.id(), queue, total, null, new ResourceList(min), w.priority(),
        w.createdMs()));
    for (PodSetSpec ps : w.podSets()) {
      for (int i = 0; i < ps.count(); i++) {
        addPod(new PodSpec(w.id() + "-" + ps.name() + "-" + i, w.id(), ps.name(), ps.perPod(), w.priority(), true,
            ps.nodeSelector(), ps.tolerations(), w.createdMs()));
      }
    }
    return pg;
  }

  // ------------------------------------------------------------------ the session

  /** Runs one scheduling session now, with the configured actions, and reports what it did. */
  public SessionOutcome runSession() {
    return runSession(config.actions(), config.configuredActions());
  }

  /**
   * Runs one session with other actions than the configured ones (as Volcano's unit tests do).
   *
   * @param configuredActions what Volcano's EnabledActionMap holds for this session (allocate admits Pending
   *     PodGroups itself when it lacks enqueue)
   */
  public SessionOutcome runSession(List<String> actions, Set<String> configuredActions) {
    for (String a : actions) {
      if (!VolcanoConfig.KNOWN_ACTIONS.contains(a)) {
        throw new IllegalArgumentException("unknown Volcano action '" + a + "'");
      }
    }
    this.configuredActions = Set.copyOf(configuredActions);
    long now = clock.getAsLong();
    Session ssn = new Session(this, ++sessions, now);
    List<Plugin> plugins = new ArrayList<>();
    for (List<PluginSpec> tier : config.tiers()) {
      for (PluginSpec p : tier) {
        Plugin plugin = Plugin.create(p);
        plugins.add(plugin);
        plugin.onSessionOpen(ssn);
      }
    }
    ssn.freeze();
    for (String a : actions) {
      Action.create(a).execute(ssn);
    }
    for (Plugin p : plugins) {
      p.onSessionClose(ssn);
    }
    return close(ssn, now);
  }

  /** closeSession: PodGroup phases (JobUpdater), then the committed evictions and binds take effect. */
  private SessionOutcome close(Session ssn, long now) {
    List<SessionOutcome.PhaseChange> changes = new ArrayList<>();
    Map<String, List<String>> pipelined = new LinkedHashMap<>();
    for (JobInfo job : ssn.jobs) {
      PodGroupPhase to = Session.phaseAtClose(job, ssn.unschedulable.contains(job));
      PodGroup pg = job.pg;
      if (to != pg.phase) {
        changes.add(new SessionOutcome.PhaseChange(pg, pg.phase, to));
        pg.phase = to;
      }
      if (to == PodGroupPhase.RUNNING && pg.runningAtMs < 0) {
        pg.runningAtMs = now;
      }
      java.util.function.Supplier<String> rejected = ssn.enqueueRejections.get(job);
      if (rejected != null && to == PodGroupPhase.PENDING) {
        pg.condition = () -> "Unschedulable: " + rejected.get();
      }
      for (TaskInfo t : job.tasks) {
        if (t.status == TaskStatus.PIPELINED && t.node != null) {
          pipelined.computeIfAbsent(job.uid, k -> new ArrayList<>()).add(t.node.name);
        }
      }
    }
    List<SessionOutcome.Eviction> evictions = new ArrayList<>();
    for (Map.Entry<TaskInfo, String> e : ssn.evicted.entrySet()) {
      Pod p = e.getKey().pod;
      p.state = PodState.RELEASING;
      evictions.add(new SessionOutcome.Eviction(p, p.nodeName(), e.getValue()));
    }
    List<SessionOutcome.Bind> binds = new ArrayList<>();
    for (TaskInfo t : ssn.dispatched) {
      Pod p = t.pod;
      Node n = nodesByName.get(t.node.name);
      p.state = PodState.BINDING;
      p.node = n;
      p.boundAtMs = now;
      n.pods.put(p.id(), p);
      binds.add(new SessionOutcome.Bind(p, n.name));
    }
    for (SessionOutcome.Eviction e : evictions) {
      host.onEvict(e.pod(), e.node(), e.reason());
    }
    for (SessionOutcome.Bind b : binds) {
      host.onBind(b.pod(), b.node());
    }
    for (SessionOutcome.PhaseChange c : changes) {
      host.onPhaseChange(c.podGroup(), c.from(), c.to());
    }
    return new SessionOutcome(ssn.uid, now, List.copyOf(binds), List.copyOf(evictions),
        Collections.unmodifiableMap(pipelined), List.copyOf(changes));
  }

  // ------------------------------------------------------------------ lifecycle reported by the host

  /** The bind (and pod start-up) finished: Binding → Running. */
  public void bindComplete(Pod p) {
    if (p.state == PodState.BINDING) {
      p.state = PodState.RUNNING;
    }
  }

  /** The pod ran to completion: it leaves its node. */
  public void podFinished(Pod p, boolean succeeded) {
    if (p.state != PodState.RUNNING && p.state != PodState.BINDING) {
      return;
    }
    unbind(p);
    p.state = succeeded ? PodState.SUCCEEDED : PodState.FAILED;
  }

  /** An evicted pod is gone from its node; its replacement (same identity) is Pending again. */
  public void evictionComplete(Pod p) {
    if (p.state != PodState.RELEASING) {
      return;
    }
    unbind(p);
    p.state = PodState.PENDING;
  }

  /**
   * The pod failed where it ran (its node failed) and its controller recreated it under the same identity:
   * it leaves its node and is Pending again. A gang that lost pods drops below minMember and its PodGroup
   * phase is recomputed at the next session close (Running → Pending, issue #2208).
   */
  public void podFailed(Pod p) {
    if (p.state != PodState.RUNNING && p.state != PodState.BINDING) {
      return;
    }
    unbind(p);
    p.state = PodState.PENDING;
  }

  private void unbind(Pod p) {
    if (p.node != null) {
      p.node.pods.remove(p.id());
      p.node = null;
    }
  }

  /** Deletes a PodGroup and its pods (they leave their nodes at once). */
  public void deletePodGroup(PodGroup pg) {
    for (Pod p : pg.pods) {
      unbind(p);
      pods.remove(p.id());
    }
    podGroups.remove(pg.id());
    QueueEdits.podGroupGone(this, pg.queue);
  }

  /** Whether sessions see the job: its PodGroup exists and its queue is the live queue of that name. */
  boolean scheduled(PodGroup pg) {
    return !pg.detached && queuesByName.get(pg.queue.name) == pg.queue;
  }

  /** Marks a node (not) Ready: sessions skip nodes that are not Ready; their pods keep their accounting. */
  public void setNodeReady(String node, boolean ready) {
    Node n = nodesByName.get(node);
    if (n == null) {
      throw new IllegalArgumentException("unknown node " + node);
    }
    n.ready = ready;
  }

  /** New labels or taints of a node (same name and allocatable): later sessions' predicates see them. */
  public void updateNode(VolcanoNodeSpec spec) {
    Node n = nodesByName.get(spec.name());
    if (n == null) {
      throw new IllegalArgumentException("unknown node " + spec.name());
    }
    n.spec = spec;
  }

  // ------------------------------------------------------------------ inspection

  /** The pods bound to {@code node} (binding, running or releasing), in bind order. */
  public List<Pod> podsOn(String node) {
    Node n = nodesByName.get(node);
    if (n == null) {
      throw new IllegalArgumentException("unknown node " + node);
    }
    return List.copyOf(n.pods.values());
  }

  public PodGroup podGroup(String id) {
    return podGroups.get(id);
  }

  public Pod pod(String id) {
    return pods.get(id);
  }

  public List<PodGroup> podGroups() {
    return List.copyOf(podGroups.values());
  }


  public boolean hasQueue(String name) {
    return queuesByName.containsKey(name);
  }

  /** Whether no queue names this one as its parent (in hierarchical mode only leaves take jobs). */
  public boolean isLeafQueue(String name) {
    for (Queue q : queues) {
      if (name.equals(q.parentName()) && !q.name.equals(name)) {
        return false;
      }
    }
    return true;
  }

  public long sessions() {
    return sessions;
  }

  /**
   * The invariants that hold at all times: allocated work within capability at every level of the queue
   * tree, node capacity, and no admission (so far) that took the enqueue accounting over a capability at any
   * level. Empty when they hold.
   */
  public List<HierarchyInvariant.Violation> checkInvariants() {
    return HierarchyInvariant.check(this);
  }

  /**
   * The strict state form of the enqueue bound — enqueued plus allocated work within capability at every
   * level. It holds while admitted groups keep their pods (see {@link HierarchyInvariant}).
   */
  public List<HierarchyInvariant.Violation> checkReservations() {
    return HierarchyInvariant.reservations(this);
  }

  List<Queue> queueList() {
    return queues;
  }

  Map<String, Queue> queueMap() {
    return queuesByName;
  }

  List<Node> nodeList() {
    return nodes;
  }

  Iterable<PodGroup> podGroupList() {
    return podGroups.values();
  }
}
