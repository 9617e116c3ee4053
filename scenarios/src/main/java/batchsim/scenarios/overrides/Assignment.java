package batchsim.scenarios.overrides;

import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.Node;

/**
 * One value to put into the scenario tree: from {@code --set path=value} or from a matrix level.
 *
 * @param path where the value goes
 * @param value the new subtree; its locations say where it was written (a file position, or the
 *     {@code --set} argument)
 * @param at where the path was written, for problems with the path itself
 * @param where the field path of the text at {@code at} ("" for a command-line argument)
 */
public record Assignment(SetPath path, Node value, Location at, String where) {}
