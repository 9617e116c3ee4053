package batchsim.reports;

/**
 * Facts about a run that the simulation itself does not know: where the scenario came from and which
 * build produced the result. Any field may be null when unknown; reports then print a placeholder.
 *
 * @param scenarioFile the scenario path as the user gave it
 * @param scenarioHash lowercase hex SHA-256 of the scenario file's bytes (with includes, {@code --set} or a
 *     sweep cell: of all of those inputs)
 * @param toolVersion the batchsim version
 * @param provenance the rest of where the result came from (engine, overrides, input files, commit); null
 *     for results built outside the CLI, which then carry no provenance block
 */
public record RunMetadata(String scenarioFile, String scenarioHash, String toolVersion, Provenance provenance) {
  public RunMetadata(String scenarioFile, String scenarioHash, String toolVersion) {
    this(scenarioFile, scenarioHash, toolVersion, null);
  }
}
