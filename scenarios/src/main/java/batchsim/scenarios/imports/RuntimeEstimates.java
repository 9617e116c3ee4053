package batchsim.scenarios.imports;

import batchsim.core.model.Durations;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How long an imported job runs, which Kubernetes objects do not say. First match wins:
 * <ol>
 *   <li>the object's {@code batchsim.io/runtime} annotation: a duration or a distribution
 *       ({@code lognormal:30m:4h});
 *   <li>its LocalQueue's {@code --queue-runtime NAMESPACE/NAME=DIST};
 *   <li>its LocalQueue's history: with at least {@value #MIN_HISTORY} finished workloads
 *       ({@link #observe}), a lognormal with their median and p99;
 *   <li>{@code --runtime DIST}, by default the placeholder {@value #PLACEHOLDER}.
 * </ol>
 * DIST is {@code 45m} | {@code lognormal:MEDIAN:P99} | {@code exponential:MEAN} | {@code uniform:MIN:MAX}.
 */
final class RuntimeEstimates {
  static final String ANNOTATION = "batchsim.io/runtime";
  static final String PLACEHOLDER = "lognormal:30m:4h";
  static final int MIN_HISTORY = 5;

  /** Where an estimate came from. */
  enum Source {
    ANNOTATION("its " + RuntimeEstimates.ANNOTATION + " annotation"),
    QUEUE_FLAG("--queue-runtime for its LocalQueue"),
    QUEUE_HISTORY("fitted to its LocalQueue's finished workloads"),
    DEFAULT("--runtime (see the header)");

    private final String text;

    Source(String text) {
      this.text = text;
    }

    String describe() {
      return text;
    }
  }

  /** The scenario {@code runtime} node and where it came from. */
  record Estimate(Node runtime, Source source) {}

  /** A parsed DIST: its kind ("constant" for a plain duration) and durations in milliseconds. */
  record Dist(String kind, List<Long> ms) {
    /** Parses DIST; the message of the exception says what is wrong, for the caller to place. */
    static Dist parse(String text) {
      String[] f = text.trim().split(":", -1);
      String kind = f[0];
      int arity = switch (kind) {
        case "lognormal", "uniform" -> 2;
        case "exponential" -> 1;
        default -> f.length == 1 ? 0 : -1;
      };
      if (arity < 0) {
        throw new IllegalArgumentException("'" + text + "' is not a runtime: use 45m, lognormal:MEDIAN:P99, "
            + "exponential:MEAN or uniform:MIN:MAX");
      }
      if (arity == 0) {
        return check(text, new Dist("constant", List.of(duration(text, kind))));
      }
      if (f.length != arity + 1) {
        throw new IllegalArgumentException("'" + text + "': " + kind + " needs " + (kind.equals("lognormal")
            ? "MEDIAN:P99, e.g. lognormal:30m:4h" : kind.equals("uniform") ? "MIN:MAX, e.g. uniform:10m:1h"
            : "MEAN, e.g. exponential:45m"));
      }
      List<Long> ms = new ArrayList<>();
      for (int i = 1; i < f.length; i++) {
        ms.add(duration(text, f[i]));
      }
      return check(text, new Dist(kind, ms));
    }

    private static long duration(String text, String part) {
      try {
        return Durations.parseMillis(part);
      } catch (IllegalArgumentException e) {
        throw part.equals(text) ? e : new IllegalArgumentException("'" + text + "': " + e.getMessage());
      }
    }

    private static Dist check(String text, Dist d) {
      String wrong = switch (d.kind()) {
        case "lognormal" -> d.ms().get(0) <= 0 ? "the median must be longer than 0"
            : d.ms().get(1) < d.ms().get(0) ? "the p99 must be at least the median" : null;
        case "uniform" -> d.ms().get(1) < d.ms().get(0) ? "the max must be at least the min" : null;
        default -> d.ms().get(0) <= 0 ? "a runtime must be longer than 0" : null;
      };
      if (wrong != null) {
        throw new IllegalArgumentException("'" + text + "': " + wrong);
      }
      return d;
    }

    /** The scenario's runtime ({@code 45m}, {@code {lognormal: {median: 30m, p99: 4h}}}); located at {@code at}. */
    Node node(Location at, String path) {
      List<String> keys = switch (kind) {
        case "lognormal" -> List.of("median", "p99");
        case "uniform" -> List.of("min", "max");
        case "exponential" -> List.of("mean");
        default -> List.of();
      };
      if (keys.isEmpty()) {
        return Tree.string(at, path, Durations.format(ms.get(0)));
      }
      Tree.Map_ params = Tree.map(at, path);
      for (int i = 0; i < keys.size(); i++) {
        params.put(keys.get(i), Durations.format(ms.get(i)), at);
      }
      return Tree.map(at, path).put(kind, params.build()).build();
    }

    @Override
    public String toString() {
      List<String> parts = new ArrayList<>(kind.equals("constant") ? List.of() : List.of(kind));
      ms.forEach(m -> parts.add(Durations.format(m)));
      return String.join(":", parts);
    }
  }

  private final Dist fallback;
  private final boolean placeholder;
  private final Map<String, Dist> queueFlags = new LinkedHashMap<>();
  private final Map<String, List<Long>> history = new LinkedHashMap<>();
  private final IssueSink problems;
  private final Map<Source, Integer> counts = new EnumMap<>(Source.class);
  private final Map<String, Integer> perQueue = new LinkedHashMap<>(); // jobs per queue from a flag or history
  private final Map<String, Integer> tooShort = new LinkedHashMap<>(); // jobs per queue with too little history

  /**
   * @param runtime {@code --runtime} (null: the placeholder)
   * @param queueRuntimes {@code --queue-runtime} values, {@code NAMESPACE/NAME=DIST}
   * @throws IllegalArgumentException naming the flag, when a value is not valid
   */
  RuntimeEstimates(String runtime, List<String> queueRuntimes, IssueSink problems) {
    this.problems = problems;
    this.placeholder = runtime == null;
    try {
      this.fallback = Dist.parse(runtime == null ? PLACEHOLDER : runtime);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--runtime " + e.getMessage());
    }
    for (String q : queueRuntimes) {
      int eq = q.indexOf('=');
      String queue = eq < 0 ? "" : q.substring(0, eq).trim();
      int slash = queue.indexOf('/');
      if (slash <= 0 || slash == queue.length() - 1 || queue.indexOf('/', slash + 1) >= 0) {
        throw new IllegalArgumentException("--queue-runtime '" + q + "': expected NAMESPACE/LOCALQUEUE=DIST, "
            + "e.g. team-a/main=lognormal:20m:3h");
      }
      try {
        queueFlags.put(queue, Dist.parse(q.substring(eq + 1)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--queue-runtime " + queue + "=" + e.getMessage());
      }
    }
  }

  /** A finished workload of {@code localQueue} ({@code namespace/name}) that ran {@code runtimeMs}. */
  void observe(String localQueue, long runtimeMs) {
    if (runtimeMs >= 0) {
      history.computeIfAbsent(localQueue, k -> new ArrayList<>()).add(runtimeMs);
    }
  }

  /** The runtime of {@code o}, a job of {@code localQueue} ({@code namespace/name}, or null). */
  Estimate forJob(KubeObject o, String localQueue) {
    Node ann = Tree.get(o.node(), "metadata", "annotations", ANNOTATION);
    if (ann != null) {
      String text = Tree.text(ann);
      try {
        Dist d = Dist.parse(text == null ? "" : text);
        return count(new Estimate(d.node(ann.location(), ann.path()), Source.ANNOTATION), null);
      } catch (IllegalArgumentException e) {
        problems.report(ann.location(), ann.path(), o.describe() + ": annotation " + ANNOTATION + ": "
            + e.getMessage());
      }
    }
    Dist flag = localQueue == null ? null : queueFlags.get(localQueue);
    if (flag != null) {
      return count(new Estimate(flag.node(ScenarioDraft.HERE, ""), Source.QUEUE_FLAG), localQueue);
    }
    List<Long> seen = localQueue == null ? List.of() : history.getOrDefault(localQueue, List.of());
    if (seen.size() >= MIN_HISTORY) {
      return count(new Estimate(fit(seen).node(ScenarioDraft.HERE, ""), Source.QUEUE_HISTORY), localQueue);
    }
    if (!seen.isEmpty()) {
      tooShort.merge(localQueue, 1, Integer::sum);
    }
    return count(new Estimate(fallback.node(ScenarioDraft.HERE, ""), Source.DEFAULT), null);
  }

  private Estimate count(Estimate e, String queue) {
    counts.merge(e.source(), 1, Integer::sum);
    if (queue != null) {
      perQueue.merge(queue, 1, Integer::sum);
    }
    return e;
  }

  /** A lognormal through the observed median and p99 (nearest rank), in whole seconds (at least 1s). */
  static Dist fit(List<Long> observed) {
    List<Long> sorted = observed.stream().sorted().toList();
    long median = seconds(rank(sorted, 0.50));
    long p99 = Math.max(median, seconds(rank(sorted, 0.99)));
    return new Dist("lognormal", List.of(median, p99));
  }

  private static long rank(List<Long> sorted, double q) {
    return sorted.get((int) Math.ceil(q * sorted.size()) - 1);
  }

  private static long seconds(long ms) {
    return Math.max(1000, Math.round(ms / 1000.0) * 1000);
  }

  /**
   * Where the runtimes came from, e.g. {@code runtimes: 3 from batchsim.io/runtime annotations, ...}, and
   * queue flags and histories that were not used; empty when there is nothing to say.
   */
  List<String> summary() {
    List<String> parts = new ArrayList<>();
    int annotated = counts.getOrDefault(Source.ANNOTATION, 0);
    if (annotated > 0) {
      parts.add(annotated + " from " + ANNOTATION + " annotations");
    }
    perQueue.forEach((q, n) -> {
      Dist flag = queueFlags.get(q);
      if (flag != null) {
        parts.add(n + " from --queue-runtime " + q + "=" + flag);
      } else {
        List<Long> seen = history.get(q);
        Dist d = fit(seen);
        parts.add(n + " from " + q + "'s history (n=" + seen.size() + ", median " + Durations.format(d.ms().get(0))
            + ", p99 " + Durations.format(d.ms().get(1)) + ")");
      }
    });
    int dflt = counts.getOrDefault(Source.DEFAULT, 0);
    if (dflt > 0) {
      parts.add(dflt + " from --runtime " + fallback + (placeholder ? " (placeholder: edit)" : ""));
    }
    List<String> out = new ArrayList<>();
    if (!parts.isEmpty()) {
      out.add("runtimes: " + String.join(", ", parts));
    }
    queueFlags.keySet().stream().filter(q -> !perQueue.containsKey(q)).forEach(q -> out.add("runtimes: "
        + "--queue-runtime " + q + " is unused: no imported job is in that LocalQueue"));
    tooShort.forEach((q, n) -> out.add("runtimes: " + q + " has " + history.get(q).size() + " finished workloads, "
        + "fewer than " + MIN_HISTORY + " to fit: its " + n + (n == 1 ? " job uses" : " jobs use") + " --runtime"));
    return out;
  }
}
