package batchsim.reports;

/**
 * Facts about a run that the simulation itself does not know: where the scenario came from and which
 * build produced the result. Any field may be null when unknown; reports then print a placeholder.
 *
 * @param scenarioFile the scenario path as the user gave it
 * @param scenarioHash lowercase hex SHA-256 of the scenario file's bytes
 * @param toolVersion the batchsim version
 */
public record RunMetadata(String scenarioFile, String scenarioHash, String toolVersion) {}
