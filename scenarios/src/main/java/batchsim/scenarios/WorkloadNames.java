package batchsim.scenarios;

import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.WorkloadClass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The workload names a scenario can produce, as {@code WorkloadSpec.id()} and the status record name them: a
 * listed workload by its name; a workload class's N-th arrival as CLASS-N (N from 1, up to its count); a trace
 * job as TRACE-JOBID. A name-only id may also be written NAMESPACE/NAME, its LocalQueue's namespace. Trace job
 * ids and the names of Kueue generator files are known only when the run reads them, so for those only the
 * prefix is checked (nothing, for a generator file); the engine refuses the rest when it applies the action.
 */
final class WorkloadNames {
  private final Set<String> listed = new LinkedHashSet<>();
  /** Class name → its count, or {@link WorkloadClass#UNLIMITED}. */
  private final Map<String, Long> classes = new LinkedHashMap<>();
  private final Map<String, String> classNamespace = new LinkedHashMap<>();
  private final List<String> tracePrefixes = new ArrayList<>();
  private boolean anyName;

  WorkloadNames(Spec.Scenario s) {
    for (Spec.ListedWorkload w : s.listedWorkloads()) {
      if (w.name() == null) {
        continue; // reported where it is written
      }
      String name = w.name().text();
      listed.add(name);
      if (name.indexOf('/') < 0) {
        listed.add(namespace(w.queue()) + "/" + name);
      }
    }
    for (Spec.WorkloadClass c : s.workloadClasses()) {
      if (c.name() != null) {
        classes.put(c.name().text(), c.count());
        classNamespace.put(c.name().text(), namespace(c.queue()));
      }
    }
    for (TraceBinder.Trace t : s.traces()) {
      if (t.mapping() != null) {
        tracePrefixes.add(t.mapping().name() + "-");
      } else {
        anyName = true; // a Kueue generator file: its names are read with it
      }
    }
  }

  private static String namespace(ScalarNode localQueue) {
    int slash = localQueue == null ? -1 : localQueue.text().indexOf('/');
    return slash < 0 ? "default" : localQueue.text().substring(0, slash);
  }

  /** Why no source can produce {@code name}, or null when one can. */
  String unknown(String name) {
    if (anyName || listed.contains(name) || fromClass(name)) {
      return null;
    }
    String bare = name.substring(name.indexOf('/') + 1);
    for (String p : tracePrefixes) {
      if (bare.startsWith(p) && bare.length() > p.length()) {
        return null;
      }
    }
    List<String> forms = new ArrayList<>(listed);
    classes.keySet().forEach(c -> forms.add(c + "-N"));
    tracePrefixes.forEach(p -> forms.add(p + "JOBID"));
    return "unknown workload '" + name + "': no listed workload, workload class or trace produces it"
        + (forms.isEmpty() ? " (the scenario has no workloads)" : " (known: " + String.join(", ", forms) + ")");
  }

  private boolean fromClass(String name) {
    int slash = name.indexOf('/');
    String bare = name.substring(slash + 1);
    int dash = bare.lastIndexOf('-');
    if (dash <= 0) {
      return false;
    }
    String cls = bare.substring(0, dash);
    Long count = classes.get(cls);
    if (count == null || (slash >= 0 && !name.substring(0, slash).equals(classNamespace.get(cls)))) {
      return false;
    }
    String n = bare.substring(dash + 1);
    if (n.isEmpty() || n.length() > 18 || !n.chars().allMatch(Character::isDigit) || n.startsWith("0")) {
      return false;
    }
    long index = Long.parseLong(n);
    return count == WorkloadClass.UNLIMITED || index <= count;
  }
}
