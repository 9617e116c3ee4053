package batchsim.core.metrics;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Kueue's Help strings (pkg/metrics/metrics.go @ ff69552e), kept as data in {@value #RESOURCE}: what a scrape
 * of Kueue shows in {@code # HELP}.
 */
final class MetricHelp {
  static final String RESOURCE = "kueue-metrics-help.txt";
  private static final Map<String, String> HELP = load();

  private MetricHelp() {}

  static String of(String family) {
    return HELP.getOrDefault(family, "");
  }

  private static Map<String, String> load() {
    Map<String, String> m = new HashMap<>();
    try (InputStream in = MetricHelp.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the build");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        int tab = line.indexOf('\t');
        if (!line.startsWith("#") && tab > 0) {
          m.put(line.substring(0, tab), unescape(line.substring(tab + 1)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return m;
  }

  /** {@code \n} is a line feed, {@code \\} a backslash. */
  private static String unescape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char n = s.charAt(++i);
        b.append(n == 'n' ? '\n' : n);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
