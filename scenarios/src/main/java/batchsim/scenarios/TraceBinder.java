package batchsim.scenarios;

import batchsim.core.model.ResourceSpace;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.scenarios.imports.GeneratorReader;
import batchsim.scenarios.imports.Warnings;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.trace.GpuOptions;
import batchsim.workloads.trace.OnError;
import batchsim.workloads.trace.TraceFormat;
import batchsim.workloads.trace.TraceFiles;
import batchsim.workloads.trace.TraceFormatException;
import batchsim.workloads.trace.TraceMapping;
import batchsim.workloads.trace.TraceScan;
import batchsim.workloads.trace.TraceSelection;
import batchsim.workloads.trace.TraceSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binds {@code workloads.traces}: public traces (swf, philly, alibaba) and Kueue performance-test generator
 * files replayed as workloads. The file is read once when the scenario is bound (malformed lines, sort
 * order) and once more by the validator (which LocalQueues, priority classes and resources its jobs use),
 * so that every problem is reported with its file and line before a run starts; a run then reads it
 * lazily (see {@link TraceSource}). The fields that shape jobs are read by {@link TraceFields}; the
 * validator's second reading is {@link TraceValidator}.
 */
final class TraceBinder {
  /** Malformed lines reported one by one, before a summary line. */
  private static final int MAX_LINE_PROBLEMS = 20;
  private static final String GENERATOR = "kueue-generator";
  private static final List<String> KEYS = List.of("name", "format", "path", "queue", "queueFrom", "queueMap",
      "priorityClass", "priorityFrom", "priorityMap", "classFrom", "perUnit", "perPod", "unitsPerPod", "podsPerJob",
      "runtime", "runtimeScale", "window", "speedup", "sample", "dropCancelled", "dropFailed", "limit", "sort",
      "sortBuffer", "onError", "gpuResource", "gpuSharing");
  private static final Set<String> GENERATOR_KEYS = Set.of("name", "format", "path", "queueMap", "speedup");

  private final Problems problems;
  private final KubeBinder kube;
  private final TraceFields fields;

  TraceBinder(KubeBinder kube) {
    this.kube = kube;
    this.problems = kube.problems();
    this.fields = new TraceFields(kube);
  }

  /**
   * One bound entry; {@code source} is null for a generator file ({@code generator} then), and either is
   * null after a problem. The nodes are kept for the validator's messages.
   */
  record Trace(Node at, String name, TraceFormat format, Path file, String displayName, GpuOptions gpu,
      TraceSelection selection, TraceMapping mapping, boolean sort, boolean readable, GeneratorReader.Config generator,
      Map<String, String> queueMap, double speedup, ScalarNode queue, Map<String, ScalarNode> queueMapNodes,
      ScalarNode priorityClass, Map<String, ScalarNode> priorityMapNodes) {

    /** Bound without a problem, so the validator can read the file once more. */
    boolean ok() {
      return file != null && (format != null ? mapping != null && selection != null && readable : generator != null);
    }

    TraceSource source(ResourceSpace space, Map<String, Integer> priorityValues) {
      TraceMapping m = new TraceMapping(mapping.name(), mapping.classFrom(), mapping.queue(), mapping.priorityClass(),
          priorityValues, mapping.shape(), mapping.requestedRuntime(), mapping.runtimeScale());
      return new TraceSource(name, file, displayName, format, gpu, selection, m, space, sort);
    }

    List<? extends WorkloadSourceSpec> sources(ResourceSpace space, Map<String, Integer> priorityValues) {
      return format != null ? List.of(source(space, priorityValues))
          : GeneratorReader.sources(generator, space, queueMap, speedup);
    }
  }

  List<Trace> traces(List<Node> items) {
    List<Trace> out = new ArrayList<>();
    for (Node n : items) {
      Trace t = trace(n);
      if (t != null) {
        out.add(t);
      }
    }
    return out;
  }

  private Trace trace(Node n) {
    Fields f = Fields.of(n, problems, KEYS.toArray(String[]::new));
    ScalarNode formatNode = f.requiredName("format");
    Path file = InputFiles.existing(f.required("path"), problems);
    if (formatNode == null) {
      return null;
    }
    String displayName = file == null ? null : file.toString();
    ScalarNode nameNode = f.optionalName("name");
    // KTH-SP2-1996-2.1-cln.swf(.gz) → KTH-SP2-1996-2.1-cln
    String name = nameNode != null ? nameNode.text() : file == null ? "trace" : TraceFiles.baseName(file);
    if (formatNode.text().equals(GENERATOR)) {
      return generator(n, f, formatNode, file, displayName, name);
    }
    TraceFormat format = TraceFormat.byId(formatNode.text());
    if (format == null) {
      problems.at(formatNode, "'" + formatNode.text() + "' is not one of swf, philly, alibaba, " + GENERATOR);
      return null;
    }
    GpuOptions gpu = fields.gpu(f, format, formatNode);
    TraceMapping mapping = fields.mapping(f, format, formatNode, name);
    TraceSelection selection = fields.selection(f);
    ScalarNode queue = f.optionalName("queue");
    Map<String, ScalarNode> queueMap = fields.nameMap(f, "queueMap");
    Map<String, ScalarNode> priorityMap = fields.nameMap(f, "priorityMap");
    boolean sort = false;
    boolean readable = false;
    if (file != null && selection != null) {
      int before = problems.sorted().size();
      sort = scanLines(f, format, file, displayName, gpu, selection);
      readable = problems.sorted().size() == before;
    }
    return new Trace(n, name, format, file, displayName, gpu, selection, mapping, sort, readable, null,
        TraceFields.texts(queueMap), 1, queue, queueMap, f.optionalName("priorityClass"), priorityMap);
  }

  /** A Kueue performance-test generator file: only name, path, queueMap and speedup apply. */
  private Trace generator(Node n, Fields f, ScalarNode formatNode, Path file, String displayName, String name) {
    for (String k : KEYS) {
      if (f.has(k) && !GENERATOR_KEYS.contains(k)) {
        problems.at(f.keyNode(k), "'" + k + "' does not apply to format " + GENERATOR + " (it takes "
            + String.join(", ", GENERATOR_KEYS) + ")");
      }
    }
    Map<String, ScalarNode> queueMap = fields.nameMap(f, "queueMap");
    double speedup = f.decimal("speedup", 1, 0);
    if (speedup <= 0) {
      problems.at(f.get("speedup"), "must be > 0");
      speedup = 1;
    }
    GeneratorReader.Config config = null;
    if (file != null) {
      try {
        config = GeneratorReader.read(file, displayName, problems, new Warnings());
      } catch (IOException e) {
        problems.at(f.get("path"), "cannot read " + file + ": " + e.getMessage());
      }
    }
    kube.resourceName(TraceFields.synthetic(formatNode, "cpu"));
    return new Trace(n, name, null, file, displayName, null, null, null, false, false, config,
        TraceFields.texts(queueMap), speedup, null, queueMap, null, Map.of());
  }

  /** Reads the file once: malformed lines and sort order. Returns whether to sort it. */
  private boolean scanLines(Fields f, TraceFormat format, Path file, String displayName, GpuOptions gpu,
      TraceSelection selection) {
    TraceScan.Raw raw;
    try {
      raw = TraceScan.raw(file, displayName, format, gpu);
    } catch (TraceFormatException e) {
      report(f.node(), e);
      return false;
    } catch (IOException | UncheckedIOException e) {
      problems.at(f.get("path"), "cannot read " + file + ": " + e.getMessage());
      return false;
    }
    if (selection.onError() == OnError.FAIL) {
      raw.malformed().stream().limit(MAX_LINE_PROBLEMS).forEach(e -> report(f.node(), e));
      if (raw.malformedCount() > MAX_LINE_PROBLEMS) {
        problems.report(new Location(displayName, raw.malformed().get(MAX_LINE_PROBLEMS).line(), 1), f.node().path(),
            "... and " + (raw.malformedCount() - MAX_LINE_PROBLEMS) + " more malformed lines");
      }
      if (raw.malformedCount() > 0) {
        problems.at(f.get("path"), raw.malformedCount() + " malformed line" + (raw.malformedCount() == 1 ? "" : "s")
            + " in " + displayName + "; fix " + (raw.malformedCount() == 1 ? "it" : "them") + ", or skip them with onError: skip");
      }
    }
    if (raw.records() == 0 && raw.malformedCount() == 0) {
      problems.at(f.get("path"), displayName + " holds no jobs");
    }
    switch (selection.sort()) {
      case ALWAYS:
        return true;
      case NEVER:
        if (!raw.sorted()) {
          problems.report(new Location(displayName, raw.firstUnsortedLine(), 1), f.node().path(),
              "submitted before the job on the line above: the trace is not sorted by submission time; remove "
                  + "sort: false (or set sort: true)");
        }
        return false;
      default:
        return !raw.sorted();
    }
  }

  private void report(MapNode entry, TraceFormatException e) {
    problems.report(new Location(e.file(), e.line(), e.column()), entry.path(),
        (e.field().isEmpty() ? "" : e.field() + ": ") + e.detail());
  }
}
