package batchsim.scenarios;

import batchsim.core.model.SimulationSpec;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.ArrivalProcess;
import batchsim.workloads.WorkloadClass;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Checks that need more than one object: unique names, references that resolve, cohort trees without
 * cycles, and workloads that can ever be admitted or ever stop arriving. Tolerates the nulls a binder
 * leaves behind after a problem, so that every problem in a file is found in one pass.
 */
final class ScenarioValidator {
  private static final int MAX_KNOWN_LISTED = 20;
  private static final Pattern GENERATED_ID = Pattern.compile("(.+)-[1-9]\\d*");

  private final Spec.Scenario s;
  private final Problems problems;

  private ScenarioValidator(Spec.Scenario s, Problems problems) {
    this.s = s;
    this.problems = problems;
  }

  static void validate(Spec.Scenario scenario, Problems problems) {
    new ScenarioValidator(scenario, problems).run();
  }

  private void run() {
    unique(s.nodePools(), Spec.NodePool::name, "node pool");
    Map<String, Spec.Flavor> flavors = unique(s.flavors(), Spec.Flavor::name, "ResourceFlavor");
    Map<String, Spec.Cohort> cohorts = unique(s.cohorts(), Spec.Cohort::name, "cohort");
    Map<String, Spec.ClusterQueue> cqs = unique(s.clusterQueues(), Spec.ClusterQueue::name, "ClusterQueue");
    Map<String, Spec.LocalQueue> lqs = uniqueBy(s.localQueues(), Spec.LocalQueue::name, Spec.LocalQueue::fullName,
        "LocalQueue");
    Map<String, Spec.PriorityClass> priorities =
        unique(s.priorityClasses(), Spec.PriorityClass::name, "priority class");
    Map<String, Spec.WorkloadClass> classes = unique(s.workloadClasses(), Spec.WorkloadClass::name, "workload class");
    unique(s.listedWorkloads(), Spec.ListedWorkload::name, "listed workload");

    for (Spec.Cohort c : s.cohorts()) {
      c.resourceGroups().forEach(g -> flavorRefs(g, flavors.keySet()));
    }
    for (Spec.ClusterQueue cq : s.clusterQueues()) {
      cq.resourceGroups().forEach(g -> flavorRefs(g, flavors.keySet()));
    }
    cohortTree(cohorts);
    for (Spec.LocalQueue lq : s.localQueues()) {
      ref(lq.clusterQueue(), cqs.keySet(), "ClusterQueue");
    }
    for (Spec.WorkloadClass wc : s.workloadClasses()) {
      workload(wc.queue(), wc.priority(), wc.podSets(), lqs, cqs, priorities.keySet());
      NodeFit.check(s.nodePools(), "workload class", wc.name(), wc.podSets(), problems);
      arrivalsEnd(wc);
    }
    TraceValidator.validate(s, problems); // traces: reads each file once more
    for (Spec.ListedWorkload w : s.listedWorkloads()) {
      workload(w.queue(), w.priority(), w.podSets(), lqs, cqs, priorities.keySet());
      NodeFit.check(s.nodePools(), "listed workload", w.name(), w.podSets(), problems);
      if (w.reservation() != null) {
        reservation(w, lqs, cqs);
      }
      if (w.name() != null) {
        var m = GENERATED_ID.matcher(w.name().text());
        if (m.matches() && classes.containsKey(m.group(1))) {
          problems.at(w.name(), "name '" + w.name().text() + "' collides with the ids workload class '"
              + m.group(1) + "' generates");
        }
      }
    }
  }

  private <T> Map<String, T> unique(List<T> items, Function<T, ScalarNode> name, String kind) {
    return uniqueBy(items, name, t -> name.apply(t) == null ? null : name.apply(t).text(), kind);
  }

  /** Maps key → first item with that key, reporting later duplicates at their name. */
  private <T> Map<String, T> uniqueBy(List<T> items, Function<T, ScalarNode> name, Function<T, String> key,
      String kind) {
    Map<String, T> byKey = new LinkedHashMap<>();
    for (T item : items) {
      String k = key.apply(item);
      if (k == null) {
        continue;
      }
      T first = byKey.putIfAbsent(k, item);
      if (first != null) {
        var at = name.apply(first).location();
        problems.at(name.apply(item), "duplicate " + kind + " name '" + k + "' (first defined at line "
            + at.line() + ", column " + at.column() + ")");
      }
    }
    return byKey;
  }

  /** Reports an unknown reference; returns whether it resolved. */
  private boolean ref(ScalarNode ref, Collection<String> known, String kind) {
    if (ref == null) {
      return false;
    }
    if (known.contains(ref.text())) {
      return true;
    }
    problems.at(ref, "unknown " + kind + " '" + ref.text() + "' " + known(known));
    return false;
  }

  /** "(known: a, b, c)", sorted and capped, or "(none defined)". */
  static String known(Collection<String> names) {
    if (names.isEmpty()) {
      return "(none defined)";
    }
    List<String> sorted = new ArrayList<>(new TreeSet<>(names));
    String shown = String.join(", ", sorted.subList(0, Math.min(sorted.size(), MAX_KNOWN_LISTED)));
    int more = sorted.size() - MAX_KNOWN_LISTED;
    return "(known: " + shown + (more > 0 ? ", ... " + more + " more" : "") + ")";
  }

  private void flavorRefs(Spec.ResourceGroup g, Set<String> flavors) {
    for (Spec.FlavorQuotas fq : g.flavors()) {
      ref(fq.flavor(), flavors, "flavor");
    }
  }

  /**
   * A cohort's parent must be a cohort (defined, or named by a ClusterQueue), and following parents must
   * never come back: Kueue's cohorts form a forest. Each cycle is reported once, at the member that comes
   * first in the file.
   */
  private void cohortTree(Map<String, Spec.Cohort> cohorts) {
    Set<String> known = new LinkedHashSet<>(cohorts.keySet());
    for (Spec.ClusterQueue cq : s.clusterQueues()) {
      if (cq.cohort() != null) {
        known.add(cq.cohort().text());
      }
    }
    Map<String, String> parent = new LinkedHashMap<>();
    cohorts.forEach((name, c) -> {
      if (ref(c.parent(), known, "cohort")) {
        parent.put(name, c.parent().text());
      }
    });
    Set<String> reported = new LinkedHashSet<>();
    for (String start : cohorts.keySet()) {
      List<String> walk = new ArrayList<>();
      String at = start;
      while (at != null && !walk.contains(at)) {
        walk.add(at);
        at = parent.get(at);
      }
      if (at == null || reported.contains(at)) {
        continue;
      }
      List<String> cycle = walk.subList(walk.indexOf(at), walk.size());
      reported.addAll(cycle);
      String first = cycle.stream()
          .min((a, b) -> cohorts.get(a).name().location().compareTo(cohorts.get(b).name().location())).get();
      int i = cycle.indexOf(first);
      List<String> ordered = new ArrayList<>(cycle.subList(i, cycle.size()));
      ordered.addAll(cycle.subList(0, i));
      ordered.add(first);
      problems.at(cohorts.get(first).parent(), "cohort cycle: " + String.join(" -> ", ordered));
    }
  }

  /**
   * A restored reservation names, for each requested resource of each pod set, a flavor its ClusterQueue has
   * for that resource, and nodes that exist at the start.
   */
  private void reservation(Spec.ListedWorkload w, Map<String, Spec.LocalQueue> lqs, Map<String, Spec.ClusterQueue> cqs) {
    Spec.LocalQueue lq = w.queue() == null ? null : lqs.get(w.queue().text());
    Spec.ClusterQueue cq = lq == null || lq.clusterQueue() == null ? null : cqs.get(lq.clusterQueue().text());
    if (cq == null) {
      return; // reported with the queue
    }
    Map<String, Set<String>> flavorsOf = new LinkedHashMap<>();
    for (Spec.ResourceGroup g : cq.resourceGroups()) {
      for (ScalarNode r : g.coveredResources()) {
        g.flavors().forEach(fq -> flavorsOf.computeIfAbsent(r.text(), k -> new LinkedHashSet<>()).add(fq.flavor().text()));
      }
    }
    Spec.ListedReservation r = w.reservation();
    NodeNames atStart = new NodeNames(s, Set.of());
    for (int i = 0; i < w.podSets().size(); i++) {
      Spec.PodSet ps = w.podSets().get(i);
      Map<String, ScalarNode> given = r.flavors().get(i);
      for (Spec.Amount a : ps.requests()) {
        String res = a.resource().text();
        if (a.value() > 0 && flavorsOf.containsKey(res) && !given.containsKey(res)) {
          problems.at(r.at(), "quotaReserved.flavors gives no flavor for resource '" + res + "' of pod set "
              + ps.name() + " (ClusterQueue '" + cq.name().text() + "' has " + String.join(", ", flavorsOf.get(res))
              + ")");
        }
      }
      given.forEach((res, flavor) -> {
        Set<String> known = flavorsOf.get(res);
        if (ps.requests().stream().noneMatch(a -> a.resource().text().equals(res))) {
          problems.at(flavor, "pod set " + ps.name() + " requests no '" + res + "'");
        } else if (known != null && !known.contains(flavor.text())) {
          problems.at(flavor, "ClusterQueue '" + cq.name().text() + "' has no flavor '" + flavor.text() + "' for "
              + res + " (it has " + String.join(", ", known) + ")");
        }
      });
      for (ScalarNode n : r.nodes().get(i)) {
        String why = atStart.absentAtStart(n.text());
        if (why != null) {
          problems.at(n, why);
        }
      }
    }
  }

  private void workload(ScalarNode queue, Spec.Priority priority, List<Spec.PodSet> podSets,
      Map<String, Spec.LocalQueue> lqs, Map<String, Spec.ClusterQueue> cqs, Set<String> priorityClasses) {
    ref(priority.priorityClass(), priorityClasses, "priority class");
    if (!ref(queue, lqs.keySet(), "LocalQueue")) {
      return;
    }
    ScalarNode cqName = lqs.get(queue.text()).clusterQueue();
    Spec.ClusterQueue cq = cqName == null ? null : cqs.get(cqName.text());
    if (cq == null) {
      return; // the LocalQueue's own reference is reported where it is written
    }
    Set<String> covered = new LinkedHashSet<>();
    cq.resourceGroups().forEach(g -> g.coveredResources().forEach(r -> covered.add(r.text())));
    for (Spec.PodSet ps : podSets) {
      for (Spec.Amount a : ps.requests()) {
        if (!covered.contains(a.resource().text()) && a.value() > 0) {
          // Kueue's flavor assigner: "resource X unavailable in ClusterQueue"; the workload would pend forever.
          problems.at(a.resource(), "ClusterQueue '" + cq.name().text() + "' (via LocalQueue '" + queue.text()
              + "') does not cover resource '" + a.resource().text() + "', so Kueue would never admit this "
              + "workload " + (covered.isEmpty() ? "(it covers nothing)" : "(covered: " + String.join(", ", covered)
              + ")"));
        }
      }
    }
  }

  /** Generated arrivals must end: by count, by until, or by the scenario horizon. */
  private void arrivalsEnd(Spec.WorkloadClass wc) {
    if (wc.arrival() == null || wc.count() != WorkloadClass.UNLIMITED) {
      return;
    }
    if (wc.arrival() instanceof ArrivalProcess.FixedInterval fi && fi.intervalMs() == 0) {
      problems.at(wc.arrivalAt(), "arrivals every 0s never advance time; give the class a count");
    } else if (!(wc.arrival() instanceof ArrivalProcess.ExplicitTimes) && wc.untilMs() == Long.MAX_VALUE
        && s.horizonMs() == SimulationSpec.NO_HORIZON) {
      problems.at(wc.arrivalAt(), "arrivals never stop: give the class a count or until, or the scenario a horizon");
    }
  }
}
