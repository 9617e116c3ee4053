package batchsim.scenarios;

import java.util.List;
import java.util.stream.Collectors;

/** A scenario file that cannot be run, with every problem found in it (sorted by position). */
public final class ScenarioException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient List<Problem> problems;

  public ScenarioException(List<Problem> problems) {
    super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ScenarioException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  public List<Problem> problems() {
    return problems;
  }
}
