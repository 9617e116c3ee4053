/**
 * The Volcano admission engine: Volcano's queues, PodGroups and scheduling session, reproduced from its
 * source (volcano-sh/volcano, pkg/scheduler) so that the same cluster and workloads can be replayed under
 * Volcano instead of Kueue.
 *
 * <p><b>Model.</b> {@link batchsim.core.volcano.VolcanoEngine} owns queues (flat, or a tree under
 * {@code root} when capacity runs with {@code enableHierarchy}), nodes, PodGroups and pods. Every schedule
 * period the host calls {@link batchsim.core.volcano.VolcanoEngine#runSession()}: a snapshot is taken, the
 * configured plugins register their functions (combined across tiers by Volcano's vote, intersection and
 * first-opinion rules), the actions run in order (enqueue, allocate, backfill, reclaim, preempt), and
 * PodGroup phases are recomputed. Allocation is per gang: a job's statement is committed (binds) only when
 * the gang is ready, kept uncommitted when only pipelined, otherwise discarded.
 *
 * <p><b>Time.</b> The engine never schedules anything. Binds and evictions go to the
 * {@link batchsim.core.volcano.VolcanoHost}; the host reports back when a bind completed, a pod
 * finished, or an evicted pod is gone. The clock only stamps sessions.
 *
 * <p><b>Determinism.</b> PodGroups are iterated by id, nodes and queues in declaration order; priority
 * queues reproduce Go's container/heap exactly ({@link batchsim.core.volcano.GoHeap}); the ties Volcano
 * leaves to chance (equal node scores, parallel predicate search) go to the node declared first.
 *
 * <p><b>Fidelity notes.</b> Resource arithmetic is Volcano's own ({@link batchsim.core.volcano.Res}:
 * float64 amounts, present/absent scalars, the 0.1 epsilon, MaxFloat64/MaxInt64 infinities), including
 * behaviours flagged as quirks in the reference notes: enqueue drains queues one after another, pipelined
 * allocations hold capacity for the rest of the session, a Running group that lost pods takes them back
 * without a new enqueue check. Not modelled: network topology / HyperNodes, sub-group policies, DRA,
 * scheduling gates, the sla/tdm/numa/binpack plugins, gang-level preemption actions.
 *
 * <p><b>Where things are.</b> One package: actions, plugins and the session all read and change the session
 * objects' fields directly (as Volcano's Go code does with its exported fields), so a package line between
 * Volcano's directories would make most of those fields public. The classes follow Volcano's files instead:
 * <ul>
 *   <li>engine, between sessions (Volcano's cache and API objects): {@code VolcanoEngine}, {@code Node},
 *       {@code PodGroup}, {@code Pod}, their specs, states and {@code SessionOutcome};
 *   <li>framework: {@code Session} (session.go: snapshot, orderings, state changes), {@code SessionPlugins}
 *       (session_plugins.go: registered functions and their tier rules), {@code Statement}, {@code Plugin},
 *       {@code Action};
 *   <li>api: {@code JobInfo}, {@code TaskInfo}, {@code NodeInfo}, {@code Queue} (QueueInfo), {@code TaskStatus},
 *       {@code Res} (Resource), {@code Dims} (resource names and units);
 *   <li>actions: {@code EnqueueAction}, {@code AllocateAction}, {@code BackfillAction}, {@code ReclaimAction},
 *       {@code PreemptAction};
 *   <li>plugins: {@code CapacityPlugin} with {@code CapacityQueueAttrs}, {@code ProportionPlugin},
 *       {@code QueueAttr} (both plugins' queueAttr), {@code GangPlugin}, {@code DrfPlugin},
 *       {@code PriorityPlugin}, {@code PredicatesPlugin}, {@code NodeOrderPlugin}, {@code OvercommitPlugin},
 *       {@code ConformancePlugin}, {@code RejecterPlugin};
 *   <li>util: {@code GoHeap} (PriorityQueue), {@code NodeSearch} (PredicateNodes);
 *   <li>checks that are not Volcano's: {@code HierarchyInvariant}, {@code AdmissionAudit}.
 * </ul>
 */
package batchsim.core.volcano;
