package batchsim.scenarios.yaml;

/** Receives problems found while reading; reading continues after a report wherever it can. */
@FunctionalInterface
public interface IssueSink {
  void report(Location at, String path, String message);
}
