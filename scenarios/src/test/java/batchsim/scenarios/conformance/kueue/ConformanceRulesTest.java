package batchsim.scenarios.conformance.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.kueue.KueueProbe;
import batchsim.core.kueue.RequeueReason;
import batchsim.core.model.QueueingStrategy;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pins tricky Kueue rules the engine must follow, each as a tiny case (with a contrasting variant where
 * that shows the rule at work) run through the conformance runner, or through {@link KueueProbe} directly.
 */
class ConformanceRulesTest {
  /** Runs inline cases and asserts every one passes; returns the report lines. */
  private static List<String> assertAllPass(String yaml) throws Exception {
    List<String> lines = new ArrayList<>();
    for (CaseResult r : ConformanceRunner.run(CaseFile.parse(new StringReader(yaml), "inline")).results()) {
      lines.add(r.line());
      assertEquals(CaseResult.Status.PASS, r.status(), r.line());
    }
    return lines;
  }

  @Test
  void lendingLimitCapsWhatACohortMayBorrow() throws Exception {
    // The lender keeps 8 of its 10 to itself, so the borrower can reach at most 2 + 2 = 4: a request of 5
    // exceeds the maximum capacity (Kueue PotentialAvailable), while lendingLimit 3 makes it fit.
    assertAllPass("""
        id: R-lending
        kind: schedule_cycle
        flavors: [default]
        clusterQueues:
          - {name: lender, cohort: co, resourceGroups: [{covered: [cpu], flavors: [{flavor: default, quota: {cpu: {nominal: 10, lendingLimit: 2}}}]}]}
          - {name: borrower, cohort: co, resourceGroups: [{covered: [cpu], flavors: [{flavor: default, quota: {cpu: {nominal: 2}}}]}]}
        pending:
          - {id: ns/big, cq: borrower, podSets: [{name: main, count: 1, perPod: {cpu: 5}}]}
        expect:
          reserved_after: []
          pending_inadmissible: {borrower: [ns/big]}
          quota_reserved_false: {ns/big: ExceedsMaxQuota}
        variants:
          - change: {clusterQueues: {lender: {resourceGroups: [{covered: [cpu], flavors: [{flavor: default, quota: {cpu: {nominal: 10, lendingLimit: 3}}}]}]}}}
            expect:
              newly_admitted: {ns/big: {cq: borrower, podSets: {main: {count: 1, flavors: {cpu: default}, usage: {cpu: 5}}}}}
              reserved_after: [ns/big]
              pending_inadmissible: {}
              quota_reserved_false: {}
        """);
  }

  @Test
  void bestEffortFifoParksANoFitHeadAsInadmissible() throws Exception {
    // Kueue RequeueIfNotPresent: NoFit is not "immediate" for BestEffortFIFO, so the head leaves the heap and
    // the next workload becomes the head; StrictFIFO puts it back at the head, where it blocks the queue.
    assertAllPass("""
        id: R-besteffort
        kind: schedule_cycle
        flavors: [default]
        clusterQueues:
          - {name: q, resourceGroups: [{covered: [cpu], flavors: [{flavor: default, quota: {cpu: {nominal: 4}}}]}]}
        pending:
          - {id: ns/too-big, cq: q, created: -10, podSets: [{name: main, count: 1, perPod: {cpu: 5}}]}
          - {id: ns/small,   cq: q, created: 0,   podSets: [{name: main, count: 1, perPod: {cpu: 1}}]}
        admitted:
          - {id: ns/running, cq: q, podSets: [{name: main, count: 1, perPod: {cpu: 2}, flavors: {cpu: default}}]}
        expect:
          reserved_after: [ns/running]
          pending_active: {q: [ns/small]}
          pending_inadmissible: {q: [ns/too-big]}
          quota_reserved_false: {ns/too-big: ExceedsMaxQuota}
        variants:
          - change: {clusterQueues: {q: {queueing: StrictFIFO}}}
            expect:
              pending_active: {q: [ns/small, ns/too-big]}
              pending_inadmissible: {}
        """);
  }

  @Test
  void pendingPreemptionMakesTheHeadStickyOnlyInBestEffortFifo() {
    KueueProbe.RequeueOutcome be = KueueProbe.requeue(QueueingStrategy.BEST_EFFORT_FIFO,
        RequeueReason.PENDING_PREEMPTION, null);
    assertTrue(be.added());
    assertFalse(be.inadmissible());
    assertTrue(be.stickyHead());
    assertFalse(be.addedAgain(), "a workload already queued is not added again");
    KueueProbe.RequeueOutcome strict = KueueProbe.requeue(QueueingStrategy.STRICT_FIFO,
        RequeueReason.PENDING_PREEMPTION, null);
    assertFalse(strict.inadmissible());
    assertFalse(strict.stickyHead());
  }

  @Test
  void aScanThatStoppedBeforeTheLastFlavorReturnsToTheHeap() {
    // Kueue LastAssignment.PendingFlavors: a Generic failure with flavors left to try is retried at once.
    assertFalse(KueueProbe.requeue(QueueingStrategy.BEST_EFFORT_FIFO, RequeueReason.GENERIC, true).inadmissible());
    assertTrue(KueueProbe.requeue(QueueingStrategy.BEST_EFFORT_FIFO, RequeueReason.GENERIC, false).inadmissible());
  }

  @Test
  void borrowWithinCohortLetsAWorkloadAboveNominalPreemptInItsQueue() throws Exception {
    // Without borrowWithinCohort a request above nominal cannot preempt at all (Kueue fitsResourceQuota only
    // asks the preemption oracle when nominal >= request, the subtree may reclaim, or preemption while
    // borrowing is allowed): NoFit. With it, the lower-priority workload in the same queue is preempted.
    assertAllPass("""
        id: R-borrow-preempt
        kind: schedule_cycle
        flavors: [on-demand]
        clusterQueues:
          - {name: alpha, cohort: other, preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority},
             resourceGroups: [{covered: [cpu], flavors: [{flavor: on-demand, quota: {cpu: {nominal: 2}}}]}]}
          - {name: beta, cohort: other, resourceGroups: [{covered: [cpu], flavors: [{flavor: on-demand, quota: {cpu: {nominal: 2}}}]}]}
        admitted:
          - {id: ns/a1, cq: alpha, priority: -1, podSets: [{name: main, count: 1, perPod: {cpu: 1}, flavors: {cpu: on-demand}}]}
          - {id: ns/b1, cq: beta,  priority: -1, podSets: [{name: main, count: 1, perPod: {cpu: 1}, flavors: {cpu: on-demand}}]}
        pending:
          - {id: ns/incoming, cq: alpha, priority: 1, podSets: [{name: main, count: 1, perPod: {cpu: 3}}]}
        expect:
          reserved_after: [ns/a1, ns/b1]
          pending_inadmissible: {alpha: [ns/incoming]}
          quota_reserved_false: {ns/incoming: WaitingForQuota}
        variants:
          - change: {clusterQueues: {alpha: {preemption: {borrowWithinCohort: {policy: LowerPriority}}}}}
            expect:
              evicted: {ns/a1: InClusterQueue}
              pending_active: {alpha: [ns/incoming]}
              pending_inadmissible: {}
              quota_reserved_false: {ns/incoming: WaitingForPreemptedWorkloads}
        """);
  }

  @Test
  void podsReadyTimeoutEvictionTimeOrdersEntriesOnlyWithTheEvictionTimestamp() throws Exception {
    // Kueue Ordering.GetQueueOrderTimestamp: requeuingStrategy.timestamp=Eviction (default) uses the Evicted
    // time after PodsReadyTimeout; Creation keeps the creation time. An AdmissionCheck eviction always
    // uses the Evicted time.
    assertAllPass("""
        id: R-order
        kind: iterator_order
        entries:
          - {id: timed-out, created: 0, evicted: {reason: PodsReadyTimeout, at: 5}}
          - {id: checked,   created: 0, evicted: {reason: AdmissionCheck, at: 4}}
          - {id: fresh,     created: 1}
        expect: {order: [fresh, checked, timed-out]}
        variants:
          - change: {config: {waitForPodsReady: {requeuingStrategy: {timestamp: Creation}}}}
            expect: {order: [timed-out, fresh, checked]}
        """);
  }

  @Test
  void everyHeadLeftPendingGetsAWarningEventWithItsReason() throws Exception {
    // Kueue requeueAndUpdate records a Warning event whose reason is the QuotaReserved=False reason.
    assertAllPass("""
        id: R-events
        kind: schedule_cycle
        flavors: [default]
        clusterQueues:
          - {name: q, queueing: StrictFIFO, resourceGroups: [{covered: [cpu], flavors: [{flavor: default, quota: {cpu: {nominal: 2}}}]}]}
        pending:
          - {id: ns/waits, cq: q, podSets: [{name: main, count: 1, perPod: {cpu: 3}}]}
        expect:
          reserved_after: []
          pending_active: {q: [ns/waits]}
          quota_reserved_false: {ns/waits: ExceedsMaxQuota}
          events: [{workload: ns/waits, reason: ExceedsMaxQuota, type: Warning}]
        variants:
          - change: {pending: {ns/waits: {podSets: [{name: main, count: 1, perPod: {cpu: 2}}]}}}
            expect:
              newly_admitted: {ns/waits: {cq: q, podSets: {main: {count: 1, flavors: {cpu: default}}}}}
              reserved_after: [ns/waits]
              pending_active: {}
              quota_reserved_false: {}
              events:
                - {workload: ns/waits, reason: QuotaReserved, type: Normal}
                - {workload: ns/waits, reason: Admitted, type: Normal}
        """);
  }

  @Test
  void noPerCohortAdmissionLimitButEachEntrySeesTheUsageOfThoseBeforeIt() throws Exception {
    // Kueue processEntry: entries are processed in iterator order against a snapshot that accumulates the
    // usage of those admitted before; the non-borrowing entry goes first.
    assertAllPass("""
        id: R-cohort
        kind: schedule_cycle
        flavors: [default]
        clusterQueues:
          - {name: a, cohort: co, resourceGroups: [{covered: [cpu], flavors: [{flavor: default, quota: {cpu: {nominal: 5}}}]}]}
          - {name: b, cohort: co, resourceGroups: [{covered: [cpu], flavors: [{flavor: default, quota: {cpu: {nominal: 5}}}]}]}
        pending:
          - {id: ns/borrows, cq: a, priority: 10, podSets: [{name: main, count: 1, perPod: {cpu: 6}}]}
          - {id: ns/nominal, cq: b, podSets: [{name: main, count: 1, perPod: {cpu: 5}}]}
        expect:
          newly_admitted: {ns/nominal: {cq: b, podSets: {main: {count: 1, flavors: {cpu: default}}}}}
          reserved_after: [ns/nominal]
          pending_inadmissible: {}
          pending_active: {a: [ns/borrows]}
          quota_reserved_false: {ns/borrows: WaitingForQuota}
        variants:
          - change: {pending: {ns/borrows: {podSets: [{name: main, count: 1, perPod: {cpu: 5}}]}}}
            expect:
              newly_admitted:
                ns/nominal: {cq: b, podSets: {main: {count: 1, flavors: {cpu: default}}}}
                ns/borrows: {cq: a, podSets: {main: {count: 1, flavors: {cpu: default}}}}
              reserved_after: [ns/nominal, ns/borrows]
              pending_active: {}
              quota_reserved_false: {}
        """);
  }

  @Test
  void aProvisioningRequestCheckDelaysTheTopologyWhileWithoutOneItIsPlacedAtOnce() throws Exception {
    // Kueue TestScheduleForTAS: with a ProvisioningRequest check the first pass reserves quota only
    // (DelayedTopologyRequest Pending, no assignment, not Admitted); without it, the pod goes to the only
    // node that fits and the workload is Admitted in the same cycle.
    List<String> lines = assertAllPass("""
        id: R-tas
        kind: schedule_cycle
        topologies: [{name: one, levels: [kubernetes.io/hostname]}]
        flavors: [{name: tas, nodeLabels: {tas-node: "true"}, topologyName: one}]
        nodes:
          - {name: x1, labels: {tas-node: "true", kubernetes.io/hostname: x1}, allocatable: {cpu: 2, pods: 10}}
          - {name: x2, labels: {tas-node: "true", kubernetes.io/hostname: x2}, allocatable: {cpu: 0.5, pods: 10}}
        admissionChecks: [{name: prov, controller: kueue.x-k8s.io/provisioning-request, active: true}]
        clusterQueues:
          - {name: q, admissionChecks: [prov], resourceGroups: [{covered: [cpu], flavors: [{flavor: tas, quota: {cpu: 10}}]}]}
        pending:
          - {id: ns/w, cq: q, admissionChecks: {prov: Pending},
             podSets: [{name: one, count: 1, perPod: {cpu: 1}, topology: {required: kubernetes.io/hostname}}]}
        expect:
          newly_admitted: {ns/w: {cq: q, podSets: {one: {count: 1, flavors: {cpu: tas}, delayedTopologyRequest: Pending, topologyAssignment: null}}}}
          events: [{workload: ns/w, reason: QuotaReserved, type: Normal}]
          reserved_after: [ns/w]
        variants:
          - change:
              clusterQueues: {q: {admissionChecks: []}}
              pending: {ns/w: {admissionChecks: null}}
            expect:
              newly_admitted: {ns/w: {cq: q, podSets: {one: {count: 1, flavors: {cpu: tas}, delayedTopologyRequest: null,
                topologyAssignment: {levels: [kubernetes.io/hostname], domains: [{values: [x1], count: 1}]}}}}}
              events: [{workload: ns/w, reason: QuotaReserved, type: Normal}, {workload: ns/w, reason: Admitted, type: Normal}]
        """);
    assertEquals(List.of("PASS R-tas", "PASS R-tas/v1"), lines);
    // A wrong expectation is reported, not ignored.
    List<CaseResult> wrong = ConformanceRunner.run(CaseFile.parse(new StringReader("""
        id: R-tas-wrong
        kind: schedule_cycle
        topologies: [{name: one, levels: [kubernetes.io/hostname]}]
        flavors: [{name: tas, topologyName: one}]
        nodes: [{name: x1, labels: {kubernetes.io/hostname: x1}, allocatable: {cpu: 2, pods: 10}}]
        clusterQueues: [{name: q, resourceGroups: [{covered: [cpu], flavors: [{flavor: tas, quota: {cpu: 10}}]}]}]
        pending: [{id: ns/w, cq: q, podSets: [{name: one, count: 1, perPod: {cpu: 1}, topology: {required: kubernetes.io/hostname}}]}]
        expect:
          newly_admitted: {ns/w: {cq: q, podSets: {one: {delayedTopologyRequest: Pending, topologyAssignment: null}}}}
          reserved_after: not_asserted
        """), "inline")).results();
    assertEquals(CaseResult.Status.FAIL, wrong.get(0).status());
    assertEquals(List.of("newly_admitted[ns/w].podSets[one].delayedTopologyRequest: expected Pending got null",
        "newly_admitted[ns/w].podSets[one].topologyAssignment: expected null got [[x1]:1]"), wrong.get(0).details());
  }
}
