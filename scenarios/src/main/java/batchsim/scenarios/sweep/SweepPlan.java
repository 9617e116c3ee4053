package batchsim.scenarios.sweep;

import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.Problem;
import batchsim.scenarios.ScenarioException;
import batchsim.scenarios.RunLimits;
import batchsim.scenarios.ScenarioLoader;
import batchsim.scenarios.overrides.Composition;
import batchsim.scenarios.overrides.Matrix;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The cells of a sweep: each matrix combination bound (and validated) on its own, then repeated for
 * {@code replicas} seeds {@code seed .. seed+replicas-1}. Every cell is bound before anything runs, so a
 * level that makes some combination invalid is reported up front, with the cell it breaks.
 *
 * @param dimensions the matrix dimension names in order
 */
public record SweepPlan(LoadedScenario base, List<String> dimensions, int replicas, List<Cell> cells) {
  public SweepPlan {
    dimensions = List.copyOf(dimensions);
    cells = List.copyOf(cells);
  }

  /**
   * The scenario checked as {@code sweep} checks it: bound on its own and in every cell of its matrix, so
   * {@code validate} refuses what the sweep would (a level's value that is bad, or bad in one combination).
   */
  public static LoadedScenario validate(Composition c, RunLimits limits) throws ScenarioException {
    return of(c, 1, limits).base();
  }

  /** Plans the sweep of a composed scenario; {@code replicasOverride} (when not null) replaces its replicas. */
  public static SweepPlan of(Composition c, Integer replicasOverride) throws ScenarioException {
    return of(c, replicasOverride, RunLimits.DEFAULTS);
  }

  /** {@link #of(Composition, Integer)}, each cell within {@code limits}. */
  public static SweepPlan of(Composition c, Integer replicasOverride, RunLimits limits) throws ScenarioException {
    LoadedScenario base = ScenarioLoader.bind(c, List.of(), null, limits); // validates the matrix too
    Matrix matrix = Matrix.parse(c.root(), (at, path, message) -> { }); // problems were reported just above
    int replicas = replicasOverride != null ? replicasOverride : matrix.replicas();
    List<Cell> cells = new ArrayList<>();
    Set<Problem> problems = new LinkedHashSet<>();
    Set<String> seen = new HashSet<>();
    Set<String> dirs = new HashSet<>();
    for (Matrix.Combination comb : matrix.combinations()) {
      LoadedScenario s;
      try {
        // without dimensions the one cell is the scenario itself, bound just above
        s = matrix.dimensions().isEmpty() ? base : ScenarioLoader.bind(c, comb.assignments(), comb.name(), limits);
      } catch (ScenarioException e) {
        for (Problem p : e.problems()) {
          if (seen.add(p.toString())) { // the same problem in many cells is shown once, for the first
            problems.add(new Problem(p.location(), p.path(), p.message() + " (in sweep cell " + comb.name() + ")"));
          }
        }
        continue;
      }
      for (int r = 0; r < replicas; r++) {
        long seed = s.spec().seed() + r;
        String name = (comb.name().isEmpty() ? "" : comb.name() + ",") + "seed=" + seed;
        String dir = Cell.safe(name);
        if (!dirs.add(dir)) { // two names that differ only in unsafe characters
          dir = dir + "~" + cells.size();
          dirs.add(dir);
        }
        cells.add(new Cell(cells.size(), name, dir, comb.name(), comb.levels(), s.withSeed(seed)));
      }
    }
    if (!problems.isEmpty()) {
      List<Problem> sorted = new ArrayList<>(problems);
      sorted.sort((a, b) -> a.location().compareTo(b.location()));
      throw new ScenarioException(sorted);
    }
    return new SweepPlan(base, matrix.dimensions().stream().map(Matrix.Dimension::name).toList(), replicas, cells);
  }
}
