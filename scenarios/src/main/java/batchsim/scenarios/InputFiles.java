package batchsim.scenarios;

import batchsim.reports.Provenance;
import batchsim.scenarios.overrides.Composition;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Files a scenario points at (traces, node lists, manifests): a relative path is relative to the
 * directory of the file that wrote it (an included file's own directory), or to the working directory for
 * a {@code --set} value. A missing file is a located problem, never an exception. Each file found is
 * hashed and noted for the result's provenance.
 */
final class InputFiles {
  private InputFiles() {}

  /** Where {@code path} (as written at {@code node}) points. */
  static Path resolve(ScalarNode node) {
    Path p = Path.of(node.text());
    if (p.isAbsolute() || node.location().line() == 0) {
      return p;
    }
    Path dir = Path.of(node.location().file()).getParent();
    return dir == null ? p : dir.resolve(p).normalize();
  }

  /** The readable file {@code node} names, or null after reporting why not. */
  static Path existing(Node node, Problems problems) {
    ScalarNode s = Values.scalar(node, problems, "a file path");
    if (s == null) {
      return null;
    }
    if (s.text().isBlank()) {
      problems.at(s, "must not be empty");
      return null;
    }
    Path p;
    try {
      p = resolve(s);
    } catch (java.nio.file.InvalidPathException e) {
      problems.at(s, "'" + s.text() + "' is not a file path");
      return null;
    }
    if (!Files.exists(p)) {
      problems.at(s, "no such file: " + p + (Path.of(s.text()).isAbsolute() ? ""
          : " (relative paths are relative to the scenario file's directory)"));
      return null;
    }
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      problems.at(s, p + " is not a readable file");
      return null;
    }
    try {
      if (!problems.read().containsKey(p.normalize())) { // a manifest named by several classes is hashed once
        problems.read(p, sha256(p));
      }
    } catch (IOException e) {
      problems.at(s, "cannot read " + p + ": " + e.getMessage());
      return null;
    }
    return p;
  }

  /** Lowercase hex SHA-256 of the file's bytes, read as a stream (traces may be large). */
  static String sha256(Path file) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
      in.transferTo(OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(md.digest());
  }

  /**
   * The inputs of a scenario for its provenance: the scenario file and its includes, then the files its
   * fields named, each path relative to the scenario file's directory ('/'-separated), so that the same
   * inputs read from another working directory or machine give the same paths.
   */
  static List<Provenance.Input> provenance(Composition c, Map<Path, String> read) {
    Path dir = Path.of(c.file()).toAbsolutePath().normalize().getParent();
    List<Provenance.Input> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    c.files().forEach(f -> add(out, seen, relative(dir, Path.of(f.path())), f.sha256()));
    read.forEach((p, sha) -> add(out, seen, relative(dir, p), sha));
    return out;
  }

  private static void add(List<Provenance.Input> out, Set<String> seen, String path, String sha) {
    if (seen.add(path)) {
      out.add(new Provenance.Input(path, sha));
    }
  }

  private static String relative(Path dir, Path file) {
    Path abs = file.toAbsolutePath().normalize();
    try {
      return (dir == null ? abs : dir.relativize(abs)).toString().replace(java.io.File.separatorChar, '/');
    } catch (IllegalArgumentException e) { // another root (a Windows drive): the path as read
      return file.toString();
    }
  }
}
