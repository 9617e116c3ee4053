package batchsim.core.kueue.tas;

import batchsim.core.model.Resources;
import batchsim.core.model.Taint;
import java.util.List;
import java.util.SortedMap;

/**
 * What TAS keeps of a Node (Kueue tas_nodes_cache: stripped nodes): its name, labels (including
 * {@code kubernetes.io/hostname}), taints and allocatable, in the simulation's base units.
 */
public record TasNode(String name, SortedMap<String, String> labels, List<Taint> taints, Resources allocatable) {}
