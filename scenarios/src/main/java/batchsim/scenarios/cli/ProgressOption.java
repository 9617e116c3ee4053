package batchsim.scenarios.cli;

import picocli.CommandLine.Option;

/** {@code --progress}, shared by run and sweep. */
final class ProgressOption {
  @Option(names = "--progress", description = "Show progress on stderr even with --quiet (default: shown unless "
      + "--quiet; a live bar on a terminal, else a line every 10 s).")
  boolean forced;
}
