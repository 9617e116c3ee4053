package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.List;

/**
 * Audits each admission of one session against the hierarchy, independently of the plugins: it starts from
 * Volcano's enqueue accounting of every queue (and its subtree, in hierarchical mode) at session start, adds
 * each admitted group's minResources to its leaf and every ancestor, and records a violation whenever a level
 * ends up above its capability on a dimension the group asks for.
 */
final class AdmissionAudit {
  private final VolcanoEngine engine;
  private final Dims dims;
  private final boolean enabled;
  private HierarchyInvariant.Accounting accounting;

  AdmissionAudit(Session ssn) {
    this.engine = ssn.engine;
    this.dims = ssn.dims;
    this.enabled = engine.checked && HierarchyInvariant.admissionEnforced(engine);
  }

  void admitted(JobInfo job) {
    if (!enabled || !job.hasMinResources()) {
      return;
    }
    if (accounting == null) {
      accounting = new HierarchyInvariant.Accounting(engine);
    }
    for (Queue q : HierarchyInvariant.chain(engine, job.queue)) {
      Res work = accounting.admitted.computeIfAbsent(q, k -> new Res(dims.size()));
      work.add(job.minResources());
      List<HierarchyInvariant.Violation> v = new ArrayList<>();
      HierarchyInvariant.compare(v, "admission of " + job.uid, q.name, work, accounting.caps.get(q), dims,
          job.minResources());
      engine.admissionViolations.addAll(v);
    }
  }
}
