/**
 * The Kueue admission engine, ported from Kueue's scheduler and controllers at commit ff69552e: the quota tree
 * of cohorts and ClusterQueues, the scheduling cycle, flavor assignment, preemption and fair sharing, the
 * workload lifecycle, admission checks and Topology Aware Scheduling. It knows nothing of the simulation
 * world: {@link batchsim.core.kueue.KueueEngine} is its face, and what it needs from around it (a timer, the
 * pods of an admitted workload) goes through {@link batchsim.core.kueue.KueueHost}.
 *
 * <p><b>Where things are.</b> One package (plus {@code tas} for the topology trees and placement): the cycle,
 * preemption and TAS read and change the workload, ClusterQueue, cohort and quota-node state directly, as
 * Kueue's Go packages share struct fields; a package line at each of Kueue's directories would make most of
 * that state public. The classes follow Kueue's packages instead:
 * <ul>
 *   <li>pkg/scheduler: {@code Scheduler} (the cycle: schedule, processEntry, requeueAndUpdate),
 *       {@code Nominator} (nominate, getAssignments, partial admission), {@code EntryOrdering} (classical and
 *       fair-sharing iterators), {@code Assignment}, {@code AssignmentMode}, {@code SchedulingShape};
 *   <li>pkg/scheduler/flavorassigner: {@code FlavorAssigner}, {@code LastAssignment}, {@code GranularMode},
 *       {@code FlavorResources}, {@code FrAmounts};
 *   <li>pkg/scheduler/preemption: {@code Preemptor} (GetTargets, IssuePreemptions), {@code ClassicalPreemption},
 *       {@code FairSharingPreemption}, {@code TargetClusterQueueOrdering}, {@code PreemptionMode}, {@code Target};
 *   <li>pkg/cache (ClusterQueues, cohorts, resource nodes): {@code QuotaTree}, {@code QuotaNode},
 *       {@code ClusterQueue} (with its pending heap and inadmissible set, pkg/cache/queue), {@code Cohort},
 *       {@code ResourceGroup}, {@code Drs} (dominant resource share), {@code InadmissibleRequeues};
 *   <li>workload and job controllers: {@code WorkloadLifecycle}, {@code Workload}, {@code WorkloadState},
 *       {@code Condition}, {@code ConditionType}, {@code RequeueReason}, {@code Backoff}, {@code QueueLifecycle}
 *       (stop policies and deletions), {@code EventRecorder};
 *   <li>pkg/controller/admissionchecks: {@code AdmissionChecks}, {@code CheckState};
 *   <li>TAS (pkg/cache/tas, pkg/scheduler tas parts): {@code Tas}, {@code TasFlavorAssigner},
 *       {@code TasAdmissions}, {@code TasSecondPass}, {@code NodeReplacement}, {@code PodSetTas}, and the
 *       {@code tas} package (domain trees, node filters, the two-phase placement);
 *   <li>checks that are not Kueue's: {@code QuotaInvariants}, {@code WorkloadStateCheck}; the conformance
 *       runner's view: {@code KueueProbe}.
 * </ul>
 */
package batchsim.core.kueue;
