package batchsim.scenarios;

import batchsim.core.model.ResourceSpace;
import batchsim.scenarios.imports.GeneratorReader;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.trace.TraceFormatException;
import batchsim.workloads.trace.TraceScan;
import batchsim.workloads.trace.TraceStats;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The validator's checks of {@code workloads.traces}, which need the whole scenario: each trace file is
 * read once more to see which LocalQueues, priority classes and resources its jobs use.
 */
final class TraceValidator {
  private TraceValidator() {}

  /** {@link #validate(List, List, Map, Map, Map, Problems)} with the scenario's queues and priorities. */
  static void validate(Spec.Scenario s, Problems problems) {
    if (s.traces().isEmpty()) {
      return;
    }
    Map<String, String> lqToCq = new LinkedHashMap<>();
    for (Spec.LocalQueue lq : s.localQueues()) {
      if (lq.fullName() != null && lq.clusterQueue() != null) {
        lqToCq.putIfAbsent(lq.fullName(), lq.clusterQueue().text());
      }
    }
    Map<String, Set<String>> covered = new LinkedHashMap<>();
    for (Spec.ClusterQueue cq : s.clusterQueues()) {
      if (cq.name() != null) {
        Set<String> r = covered.computeIfAbsent(cq.name().text(), k -> new java.util.HashSet<>());
        cq.resourceGroups().forEach(g -> g.coveredResources().forEach(c -> r.add(c.text())));
      }
    }
    Map<String, Integer> priorities = new LinkedHashMap<>();
    for (Spec.PriorityClass pc : s.priorityClasses()) {
      if (pc.name() != null) {
        priorities.putIfAbsent(pc.name().text(), pc.value());
      }
    }
    Set<String> levels = new java.util.HashSet<>();
    s.topologies().forEach(t -> levels.addAll(t.levels()));
    for (TraceBinder.Trace t : s.traces()) {
      if (t.ok() && t.format() == null) {
        generatorLevels(t, levels, problems);
      }
    }
    validate(s.traces(), s.resourceNames(), lqToCq, covered, priorities, problems);
  }

  /** A generator template's TAS level must be a level of one of the scenario's topologies. */
  private static void generatorLevels(TraceBinder.Trace t, Set<String> levels, Problems problems) {
    Set<String> reported = new java.util.HashSet<>();
    for (GeneratorReader.Queue q : t.generator().queues()) {
      for (GeneratorReader.WorkloadSet ws : q.sets()) {
        for (GeneratorReader.Template tpl : ws.templates()) {
          if (tpl.topology() == null) {
            continue;
          }
          List<String> asked = new ArrayList<>();
          if (tpl.topology().level() != null) {
            asked.add(tpl.topology().level());
          }
          tpl.topology().slices().forEach(l -> asked.add(l.level()));
          for (String level : asked) {
            if (!levels.contains(level) && reported.add(tpl.className() + " " + level)) {
              problems.report(q.at(), t.at().path(), "the generator's workload class " + tpl.className()
                  + " asks for topology level '" + level + "', which no topology of the scenario has"
                  + (levels.isEmpty() ? " (define topologies)" : ""));
            }
          }
        }
      }
    }
  }

  /**
   * The validator's checks, which need the whole scenario: every job goes to a LocalQueue that exists,
   * whose ClusterQueue covers every resource the job requests, with a priority class that exists.
   *
   * @param lqToCq LocalQueue → ClusterQueue name
   * @param covered ClusterQueue → resources it covers
   */
  static void validate(List<TraceBinder.Trace> traces, List<String> resourceNames, Map<String, String> lqToCq,
      Map<String, Set<String>> covered, Map<String, Integer> priorityValues, Problems problems) {
    ResourceSpace space = ResourceSpace.of(resourceNames);
    for (TraceBinder.Trace t : traces) {
      if (!t.ok()) {
        continue;
      }
      if (t.format() == null) {
        for (GeneratorReader.Queue q : t.generator().queues()) {
          String lq = t.queueMap().getOrDefault(q.localQueue(), q.localQueue());
          ScalarNode mapped = t.queueMapNodes().get(q.localQueue());
          Location at = mapped != null ? mapped.location() : q.at();
          String path = mapped != null ? mapped.path() : t.at().path();
          if (!lqToCq.containsKey(lq)) {
            problems.report(at, path, "the generator's ClusterQueue " + q.name() + " submits to LocalQueue '" + lq
                + "', which is not defined " + ScenarioValidator.known(lqToCq.keySet()) + "; define it, or map "
                + q.localQueue() + " with queueMap");
          } else if (!covered.getOrDefault(lqToCq.get(lq), Set.of()).contains("cpu")) {
            problems.report(at, path, "ClusterQueue '" + lqToCq.get(lq) + "' (via LocalQueue '" + lq
                + "') does not cover cpu, which every generator workload requests");
          }
        }
        continue;
      }
      TraceStats stats;
      try {
        stats = TraceScan.scan(t.source(space, priorityValues), new TraceScan.Raw(0, true, 0, List.of(), 0, Map.of()));
      } catch (TraceFormatException e) {
        problems.report(new Location(e.file(), e.line(), e.column()), t.at().path(), e.detail());
        continue;
      } catch (UncheckedIOException e) {
        problems.at(t.at(), e.getMessage());
        continue;
      }
      if (stats.selected() == 0) {
        problems.at(t.at(), "no job of " + t.displayName() + " is selected (" + stats.droppedUnknown()
            + " of unknown size or runtime, " + (stats.droppedCancelled() + stats.droppedFailed()) + " dropped by status, "
            + stats.outsideWindow() + " before the window); check window, limit and the drop options");
      }
      if (stats.duplicate() != null) {
        TraceStats.DuplicateId d = stats.duplicate();
        problems.report(new Location(t.displayName(), d.line(), 1), t.at().path(), "job id '" + d.id()
            + "' again (first at line " + d.firstLine() + ")" + (d.more() == 0 ? "" : "; " + d.more()
            + " more repeated ids follow") + ": job ids name the workloads (" + t.name() + "-" + d.id()
            + "), so each must be unique");
      }
      for (TraceStats.QueueUse use : stats.queues().values()) {
        queue(t, use, lqToCq, covered, problems);
      }
      stats.priorityClasses().forEach((pc, line) -> {
        if (!pc.isEmpty() && !priorityValues.containsKey(pc)) {
          ScalarNode fixed = t.priorityClass();
          ScalarNode mapped = t.priorityMapNodes().values().stream().filter(v -> v.text().equals(pc)).findFirst()
              .orElse(fixed != null && fixed.text().equals(pc) ? fixed : null);
          Location at = mapped != null ? mapped.location() : new Location(t.displayName(), line, 1);
          problems.report(at, mapped != null ? mapped.path() : t.at().path(), "unknown priority class '" + pc + "' "
              + ScenarioValidator.known(priorityValues.keySet()));
        }
      });
    }
  }

  private static void queue(TraceBinder.Trace t, TraceStats.QueueUse use, Map<String, String> lqToCq,
      Map<String, Set<String>> covered, Problems problems) {
    String lq = use.queue();
    ScalarNode mapped = use.value() == null ? null : t.queueMapNodes().get(use.value());
    ScalarNode at = mapped != null ? mapped : t.queue() != null && t.queue().text().equals(lq) ? t.queue() : null;
    Location where = at != null ? at.location() : new Location(t.displayName(), use.firstLine(), 1);
    String path = at != null ? at.path() : t.at().path();
    String jobs = use.jobs() + " job" + (use.jobs() == 1 ? "" : "s") + (use.value() == null ? ""
        : " with " + t.mapping().queue().from() + " '" + use.value() + "'") + " (the first at line " + use.firstLine()
        + " of " + t.displayName() + ")";
    if (lq.isEmpty()) {
      problems.report(where, path, jobs + " have no " + t.mapping().queue().from() + "; give the trace a default queue");
      return;
    }
    String cq = lqToCq.get(lq);
    if (cq == null) {
      problems.report(where, path, jobs + " go to LocalQueue '" + lq + "', which is not defined "
          + ScenarioValidator.known(lqToCq.keySet()) + (at == null ? "; define it, map the value with queueMap, or give "
          + "the trace a default queue" : ""));
      return;
    }
    List<String> missing = use.resources().stream().filter(r -> !covered.getOrDefault(cq, Set.of()).contains(r))
        .sorted().toList();
    if (!missing.isEmpty()) {
      problems.report(where, path, jobs + " request " + String.join(", ", missing) + ", which ClusterQueue '" + cq
          + "' (via LocalQueue '" + lq + "') does not cover, so Kueue would never admit them");
    }
  }
}
