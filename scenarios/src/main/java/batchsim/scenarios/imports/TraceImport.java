package batchsim.scenarios.imports;

import static batchsim.scenarios.imports.ScenarioDraft.HERE;
import static batchsim.scenarios.imports.ScenarioDraft.TRACE_RESOURCES;
import static batchsim.scenarios.imports.ScenarioDraft.baseName;
import static batchsim.scenarios.imports.ScenarioDraft.dns;
import static batchsim.scenarios.imports.ScenarioDraft.location;

import batchsim.core.model.ResourceSpace;
import batchsim.scenarios.imports.TraceImport.TraceQueues;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.workloads.trace.GpuOptions;
import batchsim.workloads.trace.OnError;
import batchsim.workloads.trace.TraceFormat;
import batchsim.workloads.trace.TraceFormatException;
import batchsim.workloads.trace.TraceMapping;
import batchsim.workloads.trace.TraceScan;
import batchsim.workloads.trace.TraceSelection;
import batchsim.workloads.trace.TraceSource;
import batchsim.workloads.trace.TraceStats;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Traces: each is scanned for its queue values and demand, referenced by path, and routed to queues once
 * the queues are known (read from Kueue objects or generated from the demand).
 */
final class TraceImport {
  private TraceImport() {}

  /** A trace's queue values, for generating ClusterQueues and routing its jobs. */
  record TraceQueues(String trace, String attribute, Tree.Map_ entry, List<String> values,
      Map<String, Long> demand, Set<String> resources, long spanMs, TraceFormat format, long maxProcs, int maxUnits,
      int unitsPerPod) {}

  static void trace(ScenarioDraft d, Path p, InputKind kind) {
    TraceFormat format = kind == InputKind.SWF ? TraceFormat.SWF : kind == InputKind.PHILLY ? TraceFormat.PHILLY
        : TraceFormat.ALIBABA;
    String attribute = d.options.queueFrom() != null && format.attributes().contains(d.options.queueFrom())
        ? d.options.queueFrom() : format == TraceFormat.PHILLY ? "vc" : format == TraceFormat.ALIBABA ? "qos" : null;
    if (d.options.queueFrom() != null && !format.attributes().contains(d.options.queueFrom())) {
      d.warnings.add("queueFrom:" + format, new Location(p.toString(), 1, 1), format.id() + " traces have no column '"
          + d.options.queueFrom() + "' (they have " + String.join(", ", format.attributes()) + ")"
          + (attribute == null ? "; one queue for all jobs" : "; using " + attribute));
    }
    int unitsPerPod = d.options.unitsPerPod() != null ? d.options.unitsPerPod()
        : format == TraceFormat.PHILLY ? d.options.gpusPerNode() : 1;
    Map<String, Long> perUnit = format == TraceFormat.SWF ? Map.of("cpu", 1000L)
        : format == TraceFormat.PHILLY ? Map.of("nvidia.com/gpu", 1L) : Map.of();
    String name = dns(baseName(p));
    TraceMapping mapping = new TraceMapping(name, null, new TraceMapping.Route(attribute == null ? name : null,
        attribute, Map.of()), TraceMapping.Route.of(null), Map.of(), new TraceMapping.PodShape(perUnit, Map.of(),
        format == TraceFormat.ALIBABA ? 1 : unitsPerPod, 0), false, 1);
    TraceStats stats;
    try {
      TraceScan.Raw raw = TraceScan.raw(p, p.toString(), format, GpuOptions.DEFAULT);
      TraceSource source = new TraceSource(name, p, p.toString(), format, GpuOptions.DEFAULT,
          TraceSelection.ALL.withOnError(OnError.SKIP), mapping, ResourceSpace.of(TRACE_RESOURCES), !raw.sorted());
      stats = TraceScan.scan(source, raw);
    } catch (TraceFormatException e) {
      d.errors.add(e.getMessage());
      return;
    } catch (IOException | RuntimeException e) {
      d.errors.add(p + ": cannot read: " + e.getMessage());
      return;
    }
    stats.malformed().forEach(e -> d.warnings.add("malformed:" + p + ":" + e.line(), location(e), e.detail()));
    Tree.Map_ entry = Tree.map(HERE, "").put("name", name, HERE).put("format", format.id(), HERE)
        .put("path", d.rel(p), HERE);
    if (stats.malformedCount() > 0) {
      entry.put("onError", "skip", HERE);
    }
    if (format != TraceFormat.ALIBABA) {
      Tree.Map_ pu = Tree.map(HERE, "");
      perUnit.forEach((r, v) -> pu.put(r, Quantities.exact(r, v), HERE));
      entry.put("perUnit", pu.build()).put("unitsPerPod", Tree.integer(HERE, "", unitsPerPod));
    }
    Map<String, Long> demand = new LinkedHashMap<>();
    Set<String> resources = new LinkedHashSet<>();
    stats.queues().values().stream().sorted((a, b) -> Long.compare(b.jobs(), a.jobs()))
        .forEach(u -> demand.put(u.queue(), u.unitSeconds()));
    stats.queues().values().forEach(u -> resources.addAll(u.resources()));
    long maxProcs = 0;
    try {
      maxProcs = Long.parseLong(stats.header().getOrDefault("MaxProcs", "0").trim());
    } catch (NumberFormatException e) {
      // a d.header without a usable MaxProcs: sized from the demand instead
    }
    List<String> values = new ArrayList<>(demand.keySet());
    d.traceQueues.add(new TraceQueues(name, attribute, entry, values, demand, resources,
        Math.max(1, stats.lastCreatedMs() - stats.firstCreatedMs()), format, maxProcs, stats.maxUnits(), unitsPerPod));
    d.header.add("  " + d.rel(p) + ": " + format.id() + " trace, " + String.format(Locale.ROOT, "%,d", stats.selected())
        + " jobs" + (attribute == null ? "" : " in " + values.size() + " " + attribute + " value" + (values.size() == 1 ? "" : "s"))
        + (stats.sorted() ? "" : ", not sorted by submission time (batchsim sorts it)")
        + (stats.droppedUnknown() > 0 ? ", " + stats.droppedUnknown() + " of unknown size or runtime (dropped)" : "")
        + (stats.malformedCount() > 0 ? ", " + stats.malformedCount() + " malformed lines (skipped)" : ""));
  }

  /** Queue name of a trace value: its namespace is the trace, e.g. philly/6214e9 (one queue: trace/main). */
  private static String lq(TraceQueues t, String value) {
    return t.trace() + "/" + (t.attribute() == null ? "main" : dns(value));
  }

  static String cq(TraceQueues t, String value) {
    return t.attribute() == null ? t.trace() : dns(t.attribute() + "-" + value);
  }

  /** Fills in each trace entry's queue routing, now that the queues are known. */
  static void routeTraces(ScenarioDraft d) {
    boolean generated = !d.traceQueues.isEmpty()
        && d.queueSources.stream().anyMatch(s -> s.startsWith("generated for"));
    for (TraceQueues t : d.traceQueues) {
      Tree.Map_ e = t.entry();
      if (!generated) {
        String first = d.localQueues.isEmpty() ? "default/main" : fullName(d.localQueues.get(0));
        e.put("queue", first, HERE);
        MapNode built = e.build();
        d.comments.put(built,
            List.of("every job goes to " + first + ": route by a trace column with queueFrom and queueMap"));
        d.traces.add(built);
        continue;
      }
      if (t.attribute() == null) {
        e.put("queue", lq(t, t.values().isEmpty() ? t.trace() : t.values().get(0)), HERE);
      } else {
        e.put("queueFrom", t.attribute(), HERE);
        Tree.Map_ map = Tree.map(HERE, "");
        List<String> own = own(d, t);
        own.forEach(v -> map.put(v, lq(t, v), HERE));
        e.put("queueMap", map.build());
        if (t.values().size() > own.size()) {
          e.put("queue", t.trace() + "/other", HERE);
        }
      }
      d.traces.add(e.build());
    }
  }

  /**
   * The values that get a queue of their own: the Philly VCs with a known size, or else the
   * {@code maxQueues} with the most jobs; the others share "other".
   */
  static List<String> own(ScenarioDraft d, TraceQueues t) {
    if (t.format() == TraceFormat.PHILLY && !d.vcNodes.isEmpty()) {
      return t.values().stream().filter(d.vcNodes::containsKey).toList();
    }
    return t.values().subList(0, Math.min(t.values().size(), d.options.maxQueues()));
  }

  private static String fullName(Node lq) {
    String ns = Tree.text(lq, "namespace");
    return (ns == null ? "" : ns + "/") + Tree.text(lq, "name");
  }
}
