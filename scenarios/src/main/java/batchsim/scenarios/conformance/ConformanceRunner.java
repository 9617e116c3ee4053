package batchsim.scenarios.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Runs conformance cases through the Kueue engine: one fresh engine per case, set up as the case
 * describes, one check of the case's kind, and a verdict. Cases the engine does not model yet (TAS cases needing admission checks,
 * admission checks, other kinds, unknown fields or feature gates) are skipped with the reason.
 */
public final class ConformanceRunner {
  /**
   * The reason TAS cases are skipped. The engine models TAS (batchsim.core.kueue.Tas), but the only TAS
   * case (T01) needs a ProvisioningRequest admission check with delayed topology assignment, and the case
   * setup does not build topologies and nodes yet.
   */
  public static final String TAS_REASON =
      "needs admission checks (ProvisioningRequest, delayed topology assignment), not modelled yet";

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
    if (isTas(c)) {
      return CaseResult.skip(c, TAS_REASON);
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

  /** TAS cases: ids T*, or any case that uses topologies, nodes, admission checks or podSet topology requests. */
  static boolean isTas(ConformanceCase c) {
    return c.id().startsWith("T") || c.spec().has("topologies") || c.spec().has("nodes") || usesTas(c.spec());
  }

  private static boolean usesTas(JsonNode n) {
    if (n.isObject()) {
      for (Iterator<String> it = n.fieldNames(); it.hasNext();) {
        String f = it.next();
        if (f.equals("topologies") || f.equals("admissionChecks") || f.equals("topology")
            || f.equals("delayedTopologyRequest") || f.equals("topologyAssignment")) {
          return true;
        }
        if (usesTas(n.get(f))) {
          return true;
        }
      }
    } else if (n.isArray()) {
      for (JsonNode e : n) {
        if (usesTas(e)) {
          return true;
        }
      }
    }
    return false;
  }
}
