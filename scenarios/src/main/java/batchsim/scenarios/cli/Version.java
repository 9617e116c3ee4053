package batchsim.scenarios.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The batchsim version, from {@code batchsim-version.properties} (filled in by Maven resource filtering). */
final class Version implements IVersionProvider {
  private static final String RESOURCE = "/batchsim-version.properties";
  private static final String VERSION = load();

  static String get() {
    return VERSION;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"batchsim " + VERSION};
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
