package batchsim.reports;

import batchsim.core.sim.EngineSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a result came from, beyond the scenario file and seed: the engine and the upstream version it
 * models, the overrides in the order given, the sweep cell, every input file the loader read with its
 * SHA-256, and the build. Written into summary.json ({@code provenance}), report.html's header, waits.hlog's
 * comments and the JUnit XML; never into the CSVs. No wall clock; paths are relative to the scenario file's
 * directory (but the scenario's own path, as given, and inputs named by an absolute path).
 *
 * @param engine the admission engine and what it is ported from
 * @param overrides {@code --set path=value} arguments in the order given
 * @param cell the sweep cell, or null outside a sweep
 * @param inputs the files read to build the scenario, in the order read: the scenario file, its includes,
 *     then traces, node lists and manifests; paths relative to the scenario file's directory
 * @param build the batchsim build
 */
public record Provenance(EngineSource engine, List<String> overrides, Cell cell, List<Input> inputs, Build build) {
  public Provenance {
    overrides = List.copyOf(overrides);
    inputs = List.copyOf(inputs);
  }

  /** One input file: its path relative to the scenario file's directory and its bytes' SHA-256 (hex). */
  public record Input(String path, String sha256) {}

  /** A sweep cell: its name ({@code gpu=48,seed=43}) and the level of each matrix dimension. */
  public record Cell(String name, Map<String, String> levels) {
    public Cell {
      levels = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(levels));
    }
  }

  /**
   * A batchsim build.
   *
   * @param commit the git commit it was built from, or "unknown" (a build outside a checkout)
   * @param dirty whether tracked files differed from that commit; null when unknown
   */
  public record Build(String version, String commit, Boolean dirty) {
    /** {@code 0.1.0 (commit f6921fc4…, dirty)}. */
    public String describe() {
      return version + " (commit " + commit + (Boolean.TRUE.equals(dirty) ? ", dirty" : "") + ")";
    }
  }

  /**
   * One line of provenance for text outputs: a key and its value; a key may repeat (inputs). Control
   * characters in the value (a multi-line {@code --set}) are escaped so that it stays one line.
   */
  public record Line(String key, String value) {
    public Line {
      StringBuilder sb = new StringBuilder(value.length());
      value.codePoints().forEach(c -> {
        if (c == '\n') {
          sb.append("\\n");
        } else if (Character.isISOControl(c)) {
          sb.append(String.format("\\u%04x", c));
        } else {
          sb.appendCodePoint(c);
        }
      });
      value = sb.toString();
    }

    @Override
    public String toString() {
      return key + ": " + value;
    }
  }

  /**
   * The provenance of a run as lines, in a fixed order (engine, overrides, sweep cell, seed, scenario, scenario
   * sha256, input per file, batchsim); without a provenance block only what {@code meta} itself knows.
   */
  public static List<Line> lines(RunMetadata meta, long seed) {
    Provenance p = meta.provenance();
    List<Line> out = new ArrayList<>();
    if (p != null) {
      out.add(new Line("engine", p.engine().describe()));
      out.add(new Line("overrides", p.overrides().isEmpty() ? "none"
          : String.join(" ", p.overrides().stream().map(s -> "--set " + s).toList())));
      if (p.cell() != null) {
        out.add(new Line("sweep cell", p.cell().name()));
      }
    }
    out.add(new Line("seed", Long.toString(seed)));
    out.add(new Line("scenario", String.valueOf(meta.scenarioFile())));
    out.add(new Line("scenario sha256", String.valueOf(meta.scenarioHash())));
    if (p != null) {
      p.inputs().forEach(i -> out.add(new Line("input", i.path() + " sha256:" + i.sha256())));
    }
    out.add(new Line("batchsim", p != null ? p.build().describe() : String.valueOf(meta.toolVersion())));
    return out;
  }

  /**
   * The provenance as the labels of the metrics file's {@code batchsim_run} info metric: engine and the version
   * it models, overrides, seed, the scenario's hash and the build (input files stay in summary.json: a label
   * per file would not be queryable).
   */
  public static SortedMap<String, String> infoLabels(RunMetadata meta, long seed) {
    SortedMap<String, String> out = new TreeMap<>();
    Provenance p = meta.provenance();
    if (p != null) {
      out.put("engine", p.engine().name());
      out.put("engine_commit", p.engine().commit());
      out.put("engine_version", p.engine().version());
      out.put("overrides", String.join(" ", p.overrides()));
      if (p.cell() != null) {
        out.put("sweep_cell", p.cell().name());
      }
      out.put("batchsim_commit", p.build().commit());
      out.put("batchsim_dirty", String.valueOf(p.build().dirty()));
    }
    out.put("seed", Long.toString(seed));
    out.put("scenario_sha256", String.valueOf(meta.scenarioHash()));
    out.put("batchsim_version", String.valueOf(meta.toolVersion()));
    return out;
  }
}
