package batchsim.scenarios.overrides;

import batchsim.reports.Provenance;
import batchsim.scenarios.yaml.Node;
import java.util.List;

/**
 * A scenario's tree after its includes were merged and its {@code --set} overrides applied, before binding.
 *
 * @param root the document root (a map, unless the file's top level is not one)
 * @param file the scenario file as the user named it
 * @param sha256 SHA-256 of the file's bytes; with includes or overrides, of every input in order
 * @param sets the {@code --set} arguments applied, in order
 * @param files the scenario file and its includes in the order read, named as read (the scenario as given,
 *     includes resolved against it), each with its bytes' SHA-256
 */
public record Composition(Node root, String file, String sha256, List<String> sets, List<Provenance.Input> files) {
  public Composition {
    sets = List.copyOf(sets);
    files = List.copyOf(files);
  }

  /** A tree built in memory, not read from files. */
  public Composition(Node root, String file, String sha256) {
    this(root, file, sha256, List.of(), List.of());
  }
}
