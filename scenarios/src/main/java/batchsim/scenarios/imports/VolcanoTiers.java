package batchsim.scenarios.imports;

import batchsim.core.volcano.ExtensionPoint;
import batchsim.core.volcano.PluginSpec;
import batchsim.core.volcano.VolcanoConfig;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scheduler configuration's plugin tiers against the presets batchsim models (Volcano's
 * DefaultSchedulerConf with proportion, or the capacity plugin guide's tiers): which preset, capacity's
 * {@code enableHierarchy}, and per modelled plugin the switches turned off and the arguments batchsim reads.
 * A preset plugin the configuration leaves out gets every switch off (the same decisions as absent), except
 * gang, whose JobValid has no switch. Tier votes and orderings depend on where a plugin sits, so a modelled
 * plugin elsewhere than in the preset is refused.
 */
final class VolcanoTiers {
  private static final String CAPACITY = "capacity";
  private static final String PROPORTION = "proportion";
  /** Plugins that only score nodes (or act on features batchsim has not got): ignoring them keeps the answer close. */
  private static final Set<String> SCORING = Set.of("binpack", "task-topology", "resource-strategy-fit", "usage",
      "numaaware", "deviceshare");
  /** Arguments batchsim reads, per plugin. */
  private static final Map<String, Set<String>> ARGUMENTS = Map.of(CAPACITY, Set.of("ancestorReclaimLevel"),
      "overcommit", Set.of("overcommit-factor"));
  /** Volcano's other plugin switches (conf.PluginOption): features batchsim does not model. */
  private static final Set<String> OTHER_SWITCHES = Set.of("enabledClusterOrder", "enableBestNode",
      "enableTargetJob", "enableReservedNodes", "enabledVictim", "enabledHyperNodeOrder", "enabledSubJobReady",
      "enabledSubJobPipelined", "enabledSubJobOrder", "enabledHyperNodeGradient");

  private final IssueSink problems;
  private final Warnings warnings;
  private final String what;

  VolcanoTiers(IssueSink problems, Warnings warnings, String what) {
    this.problems = problems;
    this.warnings = warnings;
    this.what = what;
  }

  VolcanoConfReader.Conf conf(Location at, List<Node> actions, List<List<MapNode>> tiers) {
    MapNode cap = find(tiers, CAPACITY);
    MapNode prop = find(tiers, PROPORTION);
    if (cap != null && prop != null) {
      Node name = prop.get("name");
      problems.report(name.location(), name.path(), what + ": proportion and capacity are both configured; "
          + "batchsim models one queue plugin (Volcano's guide: capacity replaces proportion). Remove one to import");
      return null;
    }
    if (cap == null && prop == null) {
      problems.report(at, "tiers", what + ": neither proportion nor capacity is configured, so no plugin shares "
          + "the queues; batchsim models one of them. Add one to import");
      return null;
    }
    boolean hierarchical = cap != null && "true".equals(Tree.text(cap, "enableHierarchy"));
    VolcanoConfig base = cap != null ? VolcanoConfig.capacity(hierarchical) : VolcanoConfig.defaults();
    List<List<String>> preset = new ArrayList<>();
    Set<String> modelled = new LinkedHashSet<>();
    for (List<PluginSpec> t : base.tiers()) {
      preset.add(t.stream().map(PluginSpec::name).toList());
      modelled.addAll(preset.get(preset.size() - 1));
    }
    Map<String, Tree.Map_> options = new LinkedHashMap<>();
    modelled.forEach(p -> options.put(p, Tree.map(at, p)));
    List<List<String>> layout = new ArrayList<>();
    List<MapNode> placed = new ArrayList<>();
    for (List<MapNode> tier : tiers) {
      List<String> names = new ArrayList<>();
      for (MapNode p : tier) {
        String name = Tree.text(p, "name");
        if (modelled.contains(name)) {
          names.add(name); // twice is out of place too
          placed.add(p);
          plugin(p, name, options.get(name));
        } else {
          unmodelled(p, name);
        }
      }
      if (!names.isEmpty()) {
        layout.add(names);
      }
    }
    if (!layout(layout, preset, placed)) {
      return null;
    }
    List<String> off = new ArrayList<>();
    for (String p : modelled) {
      if (placed.stream().noneMatch(m -> p.equals(Tree.text(m, "name")))) {
        if (p.equals("gang")) {
          problems.report(at, "tiers", what + ": gang is not configured; batchsim's Volcano jobs are gangs "
              + "(gang's JobValid has no switch). Add gang to its tier to import");
          return null;
        }
        for (ExtensionPoint e : ExtensionPoint.values()) {
          options.get(p).put(scenarioKey(e), new ScalarNode(at, p, "false", ScalarNode.Type.BOOL));
        }
        off.add(p);
      }
    }
    Tree.Map_ out = Tree.map(at, "pluginOptions");
    options.forEach((p, o) -> {
      if (!o.isEmpty()) {
        out.put(p, o.build());
      }
    });
    return new VolcanoConfReader.Conf(at, actions, cap != null ? CAPACITY : PROPORTION, hierarchical, out.build(),
        off);
  }

  private static MapNode find(List<List<MapNode>> tiers, String name) {
    for (List<MapNode> t : tiers) {
      for (MapNode p : t) {
        if (name.equals(Tree.text(p, "name"))) {
          return p;
        }
      }
    }
    return null;
  }

  /** The modelled plugins must sit as in the preset (tiers without them do not count: they decide nothing here). */
  private boolean layout(List<List<String>> layout, List<List<String>> preset, List<MapNode> placed) {
    Set<String> present = new HashSet<>();
    layout.forEach(present::addAll);
    List<List<String>> expected = new ArrayList<>();
    for (List<String> t : preset) {
      List<String> kept = t.stream().filter(present::contains).toList();
      if (!kept.isEmpty()) {
        expected.add(kept);
      }
    }
    if (expected.equals(layout)) {
      return true;
    }
    List<String> have = flat(layout);
    List<String> want = flat(expected);
    int i = 0;
    while (i < want.size() && have.get(i).equals(want.get(i))) {
      i++;
    }
    List<String> tiers = new ArrayList<>();
    for (int t = 0; t < preset.size(); t++) {
      tiers.add("tier " + (t + 1) + ": " + String.join(", ", preset.get(t)));
    }
    Node at = placed.get(i).get("name");
    problems.report(at.location(), at.path(), what + ": plugin " + Tree.text(at) + " is out of place (the "
        + "modelled plugins sit as " + layout + "); batchsim models Volcano's layout (" + String.join("; ", tiers)
        + "), and a plugin's tier changes the votes and orderings. Arrange them so to import");
    return false;
  }

  /** "tier:name" for each plugin, in order. */
  private static List<String> flat(List<List<String>> tiers) {
    List<String> out = new ArrayList<>();
    for (int t = 0; t < tiers.size(); t++) {
      for (String p : tiers.get(t)) {
        out.add(t + ":" + p);
      }
    }
    return out;
  }

  /** A modelled plugin's switches and arguments. */
  private void plugin(MapNode p, String name, Tree.Map_ options) {
    Map<String, ExtensionPoint> switches = new LinkedHashMap<>();
    for (ExtensionPoint e : ExtensionPoint.values()) {
      switches.put(volcanoKey(e), e);
    }
    Tree.Map_ args = Tree.map(p.location(), "arguments");
    p.entries().forEach((k, e) -> {
      String value = Tree.text(e.value());
      if (k.equals("name")) {
        return;
      }
      if (switches.containsKey(k)) {
        if ("false".equals(value)) {
          options.put(scenarioKey(switches.get(k)), e.value());
        }
      } else if (k.equals("enableHierarchy")) {
        if (name.equals("drf") && "true".equals(value)) {
          problems.report(e.value().location(), e.value().path(), what + ": drf enableHierarchy (hierarchical DRF) "
              + "is not modelled by batchsim and orders queues differently. Remove it to import");
        } else if (!name.equals(CAPACITY) && "true".equals(value)) {
          warnings.at("volcano-conf:enableHierarchy", e.key(), what + ": " + name + " enableHierarchy is not "
              + "modelled by batchsim; ignored");
        }
      } else if (k.equals("arguments")) {
        Tree.entries(e.value()).forEach((a, ae) -> {
          if (ARGUMENTS.getOrDefault(name, Set.of()).contains(a)) {
            args.put(a, Tree.string(ae.value().location(), ae.value().path(), String.valueOf(Tree.text(ae.value()))));
          } else {
            warnings.at("volcano-conf:argument:" + name + ":" + a, ae.key(), what + ": " + name + " argument " + a
                + " is not read by batchsim; ignored");
          }
        });
      } else {
        warnings.at("volcano-conf:" + k, e.key(), what + ": " + name + " " + k + (OTHER_SWITCHES.contains(k)
            ? " is not modelled by batchsim; ignored" : " is not a field of Volcano's plugin options (Volcano "
            + "ignores it too)"));
      }
    });
    if (!args.isEmpty()) {
      options.put("arguments", args.build());
    }
  }

  private void unmodelled(MapNode p, String name) {
    ScalarNode n = (ScalarNode) p.get("name");
    if (name.equals("overcommit")) { // the capacity guide's tiers have none; the scenario cannot add it
      problems.report(n.location(), n.path(), what + ": overcommit with capacity is not in batchsim's capacity "
          + "layout (Volcano's capacity guide drops it), and its enqueue gate would change the answer. Remove it "
          + "to import");
    } else if (SCORING.contains(name)) {
      warnings.at("volcano-plugin:" + name, n, what + ": plugin " + name + " is not modelled by batchsim (it "
          + "scores or filters nodes for features batchsim has not got); ignored");
    } else {
      problems.report(n.location(), n.path(), what + ": plugin " + name + " is not modelled by batchsim, and it "
          + "takes part in admission, ordering or eviction, so batchsim's answer would differ. Remove it to import");
    }
  }

  /** Volcano's spelling of an extension point's switch (two of them are {@code enabled...}). */
  private static String volcanoKey(ExtensionPoint e) {
    String n = e.volcanoName();
    String prefix = e == ExtensionPoint.OVERUSED || e == ExtensionPoint.ALLOCATABLE ? "enabled" : "enable";
    return prefix + Character.toUpperCase(n.charAt(0)) + n.substring(1);
  }

  /** The scenario's spelling in {@code pluginOptions}: {@code enable} and the extension point. */
  private static String scenarioKey(ExtensionPoint e) {
    String n = e.volcanoName();
    return "enable" + Character.toUpperCase(n.charAt(0)) + n.substring(1);
  }
}
