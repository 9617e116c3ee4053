package batchsim.scenarios;

import batchsim.reports.Provenance;
import batchsim.scenarios.overrides.Composition;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
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
        problems.read(p, new Problems.Read(RegularFiles.sha256(p), Path.of(s.text()).isAbsolute()));
      }
    } catch (IOException e) {
      problems.at(s, "cannot read " + p + ": " + e.getMessage());
      return null;
    }
    return p;
  }

  /**
   * The inputs of a scenario for its provenance: the scenario file and its includes, then the files its
   * fields named, each path relative to the scenario file's directory ('/'-separated), so that the same
   * inputs read from another working directory or machine give the same paths; a file the scenario named by
   * an absolute path keeps it (relative to the scenario, it would depend on where the scenario sits).
   */
  static List<Provenance.Input> provenance(Composition c, Map<Path, Problems.Read> read) {
    Path dir = Path.of(c.file()).toAbsolutePath().normalize().getParent();
    List<Provenance.Input> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    c.files().forEach(f -> add(out, seen, relative(dir, Path.of(f.path())), f.sha256()));
    read.forEach((p, r) -> add(out, seen, r.absolute() ? p.toString() : relative(dir, p), r.sha256()));
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
