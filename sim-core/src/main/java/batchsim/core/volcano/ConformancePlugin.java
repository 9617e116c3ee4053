package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's conformance plugin (plugins/conformance/conformance.go): never evicts system pods (namespace
 * {@code kube-system}) for preemption or reclaim.
 */
final class ConformancePlugin implements Plugin {
  static final String NAME = "conformance";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session ssn) {
    EvictableFn fn = (preemptor, candidates) -> {
      List<TaskInfo> victims = new ArrayList<>();
      for (TaskInfo t : candidates) {
        if (!t.id().startsWith("kube-system/")) {
          victims.add(t);
        }
      }
      return new Victims(victims, PERMIT);
    };
    ssn.plugins.addPreemptableFn(NAME, fn);
    ssn.plugins.addReclaimableFn(NAME, fn);
  }
}
