package batchsim.scenarios.cli;

import batchsim.reports.Provenance;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.Durations;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.scenarios.LoadedScenario;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * {@code --metrics FILE [--metrics-epoch TIME] [--metrics-interval DURATION]}: Kueue's metrics of the run as an
 * OpenMetrics file (README: Kueue's metrics in Prometheus). Checked before the run; nothing is written when the
 * run fails.
 */
final class MetricsOption {
  /** The epoch of a scenario without {@code snapshotTime}. */
  static final Instant DEFAULT_EPOCH = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant LATEST_EPOCH = Instant.parse("9999-01-01T00:00:00Z");
  /** The interval when the scenario has no {@code sampleInterval}. */
  static final long DEFAULT_INTERVAL_MS = 60_000;
  /** Sample lines per histogram series and scrape with Kueue's 14 and 16 buckets: buckets, +Inf, count, sum. */
  private static final int HISTOGRAM_LINES = 18;

  @Option(names = "--metrics", paramLabel = "FILE", description = "Also write Kueue's metrics, scraped in virtual "
      + "time, as an OpenMetrics text file (for promtool tsdb create-blocks-from openmetrics and Prometheus).")
  Path file;

  @Option(names = "--metrics-epoch", paramLabel = "TIME", description = "RFC 3339 wall-clock time of t = 0 for the "
      + "metrics' timestamps (default: the scenario's snapshotTime, else 2026-01-01T00:00:00Z).")
  String epoch;

  @Option(names = "--metrics-interval", paramLabel = "DURATION", description = "Scrape interval of --metrics, "
      + "e.g. 30s (default: the scenario's sampleInterval, else 60s); the end of the run is scraped too.")
  String interval;

  /** The checked options ({@link MetricsOutput#NONE} without {@code --metrics}); every problem is the user's (exit 2). */
  MetricsOutput open(LoadedScenario scenario, Path outDir) throws ScenarioCommand.UserError {
    if (file == null) {
      if (epoch != null || interval != null) {
        throw new ScenarioCommand.UserError((epoch != null ? "--metrics-epoch" : "--metrics-interval")
            + " is an option of --metrics FILE, which is not given");
      }
      return MetricsOutput.NONE;
    }
    if (scenario.volcano() != null) {
      throw new ScenarioCommand.UserError("--metrics writes Kueue's metrics; this scenario runs under Volcano, "
          + "which has no metric model in batchsim (see timeseries.csv and summary.json instead)");
    }
    long epochMs = epochMs(scenario);
    long intervalMs = intervalMs(scenario.spec());
    refuseAbsurd(scenario.spec(), intervalMs);
    return MetricsOutput.open(file, outDir, epochMs, intervalMs,
        Provenance.infoLabels(scenario.metadata(null, Version.build()), scenario.spec().seed()));
  }

  private long epochMs(LoadedScenario scenario) throws ScenarioCommand.UserError {
    if (epoch == null) {
      return (scenario.snapshotTime() != null ? scenario.snapshotTime() : DEFAULT_EPOCH).toEpochMilli();
    }
    Instant t;
    try {
      t = OffsetDateTime.parse(epoch.strip()).toInstant();
    } catch (DateTimeParseException e) {
      throw new ScenarioCommand.UserError("--metrics-epoch '" + epoch + "': not an RFC 3339 time at column "
          + (e.getErrorIndex() + 1) + " (write e.g. 2026-01-01T00:00:00Z or 2026-01-01T09:30:00+02:00)");
    }
    if (t.getNano() % 1_000_000 != 0) {
      throw new ScenarioCommand.UserError("--metrics-epoch '" + epoch + "': finer than a millisecond");
    }
    if (t.isBefore(Instant.EPOCH) || !t.isBefore(LATEST_EPOCH)) { // Prometheus's timestamps: Unix time, ms in a long
      throw new ScenarioCommand.UserError("--metrics-epoch '" + epoch + "': must lie from 1970-01-01T00:00:00Z to "
          + "before " + LATEST_EPOCH);
    }
    return t.toEpochMilli();
  }

  private long intervalMs(SimulationSpec spec) throws ScenarioCommand.UserError {
    if (interval == null) {
      return spec.sampleIntervalMs() > 0 ? spec.sampleIntervalMs() : DEFAULT_INTERVAL_MS;
    }
    long ms;
    try {
      ms = Durations.parseMillis(interval);
    } catch (IllegalArgumentException e) {
      throw new ScenarioCommand.UserError("--metrics-interval: " + e.getMessage());
    }
    if (ms <= 0) {
      throw new ScenarioCommand.UserError("--metrics-interval '" + interval + "': must be longer than 0");
    }
    return ms;
  }

  /**
   * Refuses, before the run, a file whose series × scrapes exceed {@link batchsim.reports.OpenMetricsFile#MAX_LINES}
   * (a run without horizon is bounded while it goes instead).
   */
  private void refuseAbsurd(SimulationSpec spec, long intervalMs) throws ScenarioCommand.UserError {
    if (spec.horizonMs() == SimulationSpec.NO_HORIZON) {
      return;
    }
    long series = seriesEstimate(spec);
    long scrapes = spec.horizonMs() / intervalMs + 2;
    long max = batchsim.reports.OpenMetricsFile.MAX_LINES;
    if ((double) series * scrapes > max) {
      long suggested = (long) Math.ceil((double) spec.horizonMs() * series / max / 60_000.0) * 60_000;
      throw new ScenarioCommand.UserError(String.format(Locale.ROOT, "--metrics: about %,d series × %,d scrapes "
          + "(every %s over %s) = %,d samples, more than the %,d a metrics file may hold; scrape less often, "
          + "e.g. --metrics-interval %s", series, scrapes, Durations.format(intervalMs),
          Durations.format(spec.horizonMs()), series * scrapes, max, Durations.format(suggested)));
    }
  }

  /**
   * Sample lines per scrape that the run surely has: per ClusterQueue its gauges, resource gauges and the counters
   * and wait-time histograms of one priority class; per LocalQueue the same; per cohort its info and subtree gauges.
   */
  static long seriesEstimate(SimulationSpec spec) {
    long lines = 2 + 11 + 3; // admission attempts: the counter and the duration histogram (11 default buckets)
    for (ClusterQueueSpec cq : spec.clusterQueues()) {
      lines += 9 + 5L * flavorResources(cq) + 3 + 2 * HISTOGRAM_LINES;
    }
    for (var lq : spec.localQueues()) {
      ClusterQueueSpec cq = spec.clusterQueues().stream().filter(c -> c.name().equals(lq.clusterQueue()))
          .findFirst().orElse(null);
      lines += 5 + 2L * (cq == null ? 0 : flavorResources(cq)) + 3 + 2 * HISTOGRAM_LINES;
    }
    lines += 2L * spec.cohorts().size();
    return lines;
  }

  private static long flavorResources(ClusterQueueSpec cq) {
    long n = 0;
    for (ResourceGroupSpec rg : cq.resourceGroups()) {
      n += (long) rg.coveredResources().size() * rg.flavors().size();
    }
    return n;
  }
}
