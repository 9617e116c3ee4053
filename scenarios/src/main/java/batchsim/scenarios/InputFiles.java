package batchsim.scenarios;

import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files a scenario points at (traces, node lists, manifests): a relative path is relative to the
 * directory of the file that wrote it (an included file's own directory), or to the working directory for
 * a {@code --set} value. A missing file is a located problem, never an exception.
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
    return p;
  }
}
