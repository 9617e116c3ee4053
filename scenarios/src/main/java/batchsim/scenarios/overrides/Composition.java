package batchsim.scenarios.overrides;

import batchsim.scenarios.yaml.Node;

/**
 * A scenario's tree after its includes were merged and its {@code --set} overrides applied, before binding.
 *
 * @param root the document root (a map, unless the file's top level is not one)
 * @param file the scenario file as the user named it
 * @param sha256 SHA-256 of the file's bytes; with includes or overrides, of every input in order
 */
public record Composition(Node root, String file, String sha256) {}
