package batchsim.scenarios.cli;

import batchsim.reports.Provenance;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The batchsim build, from {@code batchsim-version.properties}: the version (Maven resource filtering) and
 * the git commit with its dirty flag (asked of git at build time, see scenarios/pom.xml); "unknown" where
 * the build could not say (a build outside a git checkout, or classes not built by Maven).
 */
final class Version implements IVersionProvider {
  private static final String RESOURCE = "/batchsim-version.properties";
  private static final String UNKNOWN = "unknown";
  private static final Provenance.Build BUILD = load();

  static String get() {
    return BUILD.version();
  }

  static Provenance.Build build() {
    return BUILD;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"batchsim " + BUILD.describe()};
  }

  private static Provenance.Build load() {
    try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return new Provenance.Build(UNKNOWN, UNKNOWN, null);
      }
      Properties p = new Properties();
      p.load(in);
      return build(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The build the properties describe. */
  static Provenance.Build build(Properties p) {
    String dirty = value(p, "dirty");
    return new Provenance.Build(value(p, "version"), value(p, "commit"),
        dirty.equals(UNKNOWN) ? null : Boolean.valueOf(dirty));
  }

  /** A property, or "unknown" when absent or left unfiltered ({@code ${...}}). */
  private static String value(Properties p, String key) {
    String v = p.getProperty(key, UNKNOWN).strip();
    return v.isEmpty() || v.startsWith("${") ? UNKNOWN : v;
  }
}
