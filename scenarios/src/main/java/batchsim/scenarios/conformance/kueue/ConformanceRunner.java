package batchsim.scenarios.conformance.kueue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs conformance cases through the Kueue engine: one fresh engine per case, set up as the case
 * describes, one check of the case's kind, and a verdict. TAS cases (topologies, nodes, ProvisioningRequest
 * admission checks, podSet topology requests) run like any other. What the engine does not model (other
 * kinds, unknown feature gates, admission check controllers other than ProvisioningRequest, and the like) is
 * skipped with the precise reason. A key the format does not know never reaches here: {@link CaseFile}
 * refuses the file with the key's location ({@link CaseKeys}).
 */
public final class ConformanceRunner {
  private ConformanceRunner() {}

  /** The verdicts of a run, in case order. */
  public record Report(List<CaseResult> results) {
    public Report {
      results = List.copyOf(results);
    }

    public long count(CaseResult.Status s) {
      return results.stream().filter(r -> r.status() == s).count();
    }

    /** {@code N passed, M failed, K skipped}. */
    public String summaryLine() {
      return String.format(Locale.ROOT, "%d passed, %d failed, %d skipped", count(CaseResult.Status.PASS),
          count(CaseResult.Status.FAIL), count(CaseResult.Status.SKIP));
    }
  }

  public static Report run(List<ConformanceCase> cases) {
    List<CaseResult> out = new ArrayList<>();
    for (ConformanceCase c : cases) {
      out.add(run(c));
    }
    return new Report(out);
  }

  public static CaseResult run(ConformanceCase c) {
    if (c.spec().has("invalid")) {
      return CaseResult.fail(c, List.of("invalid case: " + c.spec().get("invalid").asText()), List.of());
    }
    try {
      Mismatches m;
      switch (c.kind()) {
        case "schedule_cycle":
          m = ScheduleCycleCase.run(c);
          break;
        case "flavor_assignment":
          m = FlavorAssignmentCase.run(c);
          break;
        case "iterator_order":
          m = IteratorOrderCase.run(c);
          break;
        case "requeue_table":
          m = RequeueTableCase.run(c);
          break;
        case "preemption_targets":
          m = PreemptionTargetsCase.run(c);
          break;
        default:
          return CaseResult.skip(c, "kind '" + c.kind() + "' is not supported yet");
      }
      return m.isEmpty() ? CaseResult.pass(c, m.caveats()) : CaseResult.fail(c, m.all(), m.caveats());
    } catch (CaseException e) {
      return e.isUnsupported() ? CaseResult.skip(c, e.getMessage())
          : CaseResult.fail(c, List.of("invalid case: " + e.getMessage()), List.of());
    } catch (RuntimeException e) {
      return CaseResult.fail(c, List.of("engine error: " + e), List.of());
    }
  }
}
