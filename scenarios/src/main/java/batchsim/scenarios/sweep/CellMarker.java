package batchsim.scenarios.sweep;

import batchsim.scenarios.RegularFiles;
import batchsim.scenarios.expect.Outcome;
import batchsim.scenarios.yaml.Location;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The done-marker of a sweep cell ({@value #FILE}), written last in the cell's directory: which run the
 * reports beside it are (the scenario's hash with every override, the cell's overrides and seed, whether it
 * was checked, the tool's version), a digest of those reports, and what the sweep keeps of the run (metric
 * values and expectation verdicts), so that a resumed sweep can skip the cell without running it again.
 *
 * @param scenario SHA-256 of the cell's scenario (its --set and matrix overrides included) and input files
 * @param version the build ({@code 0.1.0 (commit …)}): another commit runs the cell again
 * @param metrics sweep metric (as printed) → value, null when the run has none
 */
record CellMarker(String scenario, Map<String, String> overrides, long seed, boolean checked, String version,
    String digest, Map<String, Double> metrics, List<Outcome> outcomes) {
  static final String FILE = "done.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** This marker (what a run of the cell must say) with the run's digest and results. */
  CellMarker finished(String digest, Map<String, Double> metrics, List<Outcome> outcomes) {
    return new CellMarker(scenario, overrides, seed, checked, version, digest, metrics, outcomes);
  }

  /** The marker of {@code cellDir}, or null when it has none or an unreadable one (the cell is run again). */
  static CellMarker read(Path cellDir) {
    Path file = cellDir.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      JsonNode n = JSON.readTree(file.toFile());
      Map<String, String> overrides = new LinkedHashMap<>();
      n.path("overrides").fields().forEachRemaining(e -> overrides.put(e.getKey(), e.getValue().asText()));
      Map<String, Double> metrics = new LinkedHashMap<>();
      n.path("metrics").fields().forEachRemaining(e ->
          metrics.put(e.getKey(), e.getValue().isNumber() ? e.getValue().asDouble() : null));
      List<Outcome> outcomes = new ArrayList<>();
      for (JsonNode o : n.path("outcomes")) {
        JsonNode at = o.path("at");
        outcomes.add(new Outcome(o.path("name").asText(), Outcome.Status.valueOf(o.path("status").asText()),
            o.path("detail").asText(), new Location(at.path("file").asText(), at.path("line").asInt(),
            at.path("column").asInt())));
      }
      return new CellMarker(n.path("scenario").asText(), overrides, n.path("seed").asLong(),
          n.path("checked").asBoolean(), n.path("version").asText(), n.path("digest").asText(), metrics, outcomes);
    } catch (IOException | IllegalArgumentException e) {
      return null; // unreadable, or edited by hand: not a proof of anything
    }
  }

  /**
   * Whether this marker vouches for a finished run of {@code expected} (same scenario, overrides, seed,
   * checking and version, every metric the sweep asks for) whose reports in {@code cellDir} are intact.
   */
  boolean matches(CellMarker expected, Path cellDir) throws IOException {
    return scenario.equals(expected.scenario) && overrides.equals(expected.overrides) && seed == expected.seed
        && checked == expected.checked && version.equals(expected.version)
        && metrics.keySet().containsAll(expected.metrics.keySet()) && digest.equals(digest(cellDir));
  }

  /** Writes the marker into {@code cellDir} through a temporary file, so it is whole or absent. */
  void write(Path cellDir) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    n.put("scenario", scenario);
    ObjectNode o = n.putObject("overrides");
    overrides.forEach(o::put);
    n.put("seed", seed);
    n.put("checked", checked);
    n.put("version", version);
    n.put("digest", digest);
    ObjectNode m = n.putObject("metrics");
    metrics.forEach((k, v) -> {
      if (v == null) {
        m.putNull(k);
      } else {
        m.put(k, v);
      }
    });
    ArrayNode list = n.putArray("outcomes");
    for (Outcome out : outcomes) {
      ObjectNode e = list.addObject();
      e.put("name", out.name());
      e.put("status", out.status().name());
      e.put("detail", out.detail());
      ObjectNode at = e.putObject("at");
      at.put("file", out.at().file());
      at.put("line", out.at().line());
      at.put("column", out.at().column());
    }
    Path tmp = cellDir.resolve(FILE + ".tmp");
    Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n) + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, cellDir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** {@code sha256:HEX} over the names and bytes of every file below {@code cellDir} but the marker. */
  static String digest(Path cellDir) throws IOException {
    MessageDigest md = RegularFiles.sha256Digest();
    List<Path> files;
    try (Stream<Path> s = Files.walk(cellDir)) {
      files = s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith(FILE)).sorted().toList();
    }
    byte[] buf = new byte[1 << 16];
    for (Path f : files) {
      md.update((cellDir.relativize(f).toString() + "\0").getBytes(StandardCharsets.UTF_8));
      try (InputStream in = new DigestInputStream(Files.newInputStream(f), md)) {
        while (in.read(buf) >= 0) {
          // the stream feeds the digest
        }
      }
      md.update((byte) 0);
    }
    return "sha256:" + HexFormat.of().formatHex(md.digest());
  }
}
