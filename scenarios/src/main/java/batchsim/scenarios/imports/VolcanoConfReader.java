package batchsim.scenarios.imports;

import batchsim.core.volcano.VolcanoConfig;
import batchsim.scenarios.RegularFiles;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The volcano-scheduler ConfigMap ({@code data["volcano-scheduler.conf"]}, Volcano's
 * {@code SchedulerConfiguration}) read for the scenario's {@code volcano:} settings: the {@code actions} string
 * becomes {@code actions} (an action batchsim does not model is refused: its decisions would be missing), the
 * tiers go to {@link VolcanoTiers}, and the rest ({@code configurations}, {@code metrics}) is warned about.
 * Problems are located in the ConfigMap's file, inside the conf text where kubectl printed it as a block.
 */
final class VolcanoConfReader {
  static final String KEY = "volcano-scheduler.conf";
  private static final Pattern BLOCK = Pattern.compile(".*:\\s*\\|[-+0-9]*\\s*(#.*)?");

  /** What the ConfigMap sets, located at its conf. */
  record Conf(Location at, List<Node> actions, String preset, boolean hierarchical, MapNode pluginOptions,
      List<String> switchedOff) {}

  private final IssueSink problems;
  private final Warnings warnings;
  private final String what;

  private VolcanoConfReader(IssueSink problems, Warnings warnings, String what) {
    this.problems = problems;
    this.warnings = warnings;
    this.what = what;
  }

  static boolean handles(KubeObject o) {
    return o.kind().equals("ConfigMap") && o.group().isEmpty() && Tree.get(o.node(), "data", KEY) != null;
  }

  /** The configuration, or null after reporting why there is none. */
  static Conf read(KubeObject cm, IssueSink problems, Warnings warnings) {
    return new VolcanoConfReader(problems, warnings, "ConfigMap " + cm.describe().substring("ConfigMap/".length()))
        .conf(Tree.get(cm.node(), "data", KEY));
  }

  private Conf conf(Node data) {
    Node root = parse(data);
    if (!(root instanceof MapNode conf)) {
      if (root != null) {
        problems.report(root.location(), root.path(), what + ": " + KEY + " is not a map");
      }
      return null;
    }
    Tree.entries(conf).forEach((k, e) -> {
      if (!k.equals("actions") && !k.equals("tiers")) {
        warnings.at("volcano-conf:" + k, e.key(), what + ": " + k + " is not modelled by batchsim; ignored"
            + (k.equals("configurations") ? " (action arguments)" : ""));
      }
    });
    List<Node> actions = actions(Tree.get(conf, "actions"), conf);
    List<List<MapNode>> tiers = new ArrayList<>();
    for (Node t : Tree.items(conf, "tiers")) {
      List<MapNode> plugins = new ArrayList<>();
      for (Node p : Tree.items(t, "plugins")) {
        if (p instanceof MapNode m && Tree.text(m, "name") != null) {
          plugins.add(m);
        } else {
          problems.report(p.location(), p.path(), what + ": a plugin entry needs a name");
        }
      }
      tiers.add(plugins);
    }
    return new VolcanoTiers(problems, warnings, what).conf(conf.location(), actions, tiers);
  }

  /**
   * The conf text parsed as YAML. A literal block scalar ({@code |}, as kubectl prints it) keeps the file's
   * lines and columns: its lines are parsed in place (the lines above it left empty); any other is located at
   * the value.
   */
  private Node parse(Node data) {
    String text = Tree.text(data);
    Location at = data.location();
    String source = null;
    try {
      String file = RegularFiles.readString(Path.of(at.file()));
      String[] lines = file.split("\n", -1);
      if (at.line() - 1 < lines.length && BLOCK.matcher(lines[at.line() - 1]).matches()) {
        int first = at.line(); // 0-based index of the block's first line
        int indent = 0;
        for (int i = first; i < lines.length; i++) {
          if (!lines[i].isBlank()) {
            indent = lines[i].length() - lines[i].stripLeading().length();
            break;
          }
        }
        StringBuilder sb = new StringBuilder("\n".repeat(first));
        String pad = " ".repeat(indent);
        for (String l : text.split("\n", -1)) {
          sb.append(l.isEmpty() ? "" : pad + l).append('\n');
        }
        source = sb.toString();
      }
    } catch (IOException | RuntimeException e) {
      source = null; // not a file on disk (a test's text): located at the value
    }
    if (source != null) {
      return YamlTreeReader.read(at.file(), source, problems);
    }
    Node parsed = YamlTreeReader.read(at.file(), text, (l, p, m) -> problems.report(at, data.path(), what + ": "
        + KEY + " line " + l.line() + ": " + m));
    return parsed == null ? null : relocated(parsed, at);
  }

  /** {@code n} with every location {@code at}: a quoted conf's own lines are not the file's. */
  private static Node relocated(Node n, Location at) {
    if (n instanceof MapNode m) {
      Map<String, MapNode.Entry> entries = new LinkedHashMap<>();
      m.entries().forEach((k, e) -> entries.put(k, new MapNode.Entry((ScalarNode) relocated(e.key(), at),
          relocated(e.value(), at))));
      return new MapNode(at, m.path(), entries);
    }
    if (n instanceof ListNode l) {
      return new ListNode(at, l.path(), l.items().stream().map(i -> relocated(i, at)).toList());
    }
    ScalarNode s = (ScalarNode) n;
    return new ScalarNode(at, s.path(), s.text(), s.type());
  }

  /** {@code "enqueue, allocate, backfill"}: each a known action, else refused. */
  private List<Node> actions(Node n, MapNode conf) {
    if (n == null) {
      problems.report(conf.location(), conf.path(), what + ": " + KEY + " has no actions");
      return List.of();
    }
    List<Node> out = new ArrayList<>();
    for (String a : String.valueOf(Tree.text(n)).split(",")) {
      String name = a.trim();
      if (!VolcanoConfig.KNOWN_ACTIONS.contains(name)) {
        problems.report(n.location(), n.path(), what + ": action '" + name + "' is not modelled by batchsim "
            + "(it models " + String.join(", ", VolcanoConfig.KNOWN_ACTIONS) + "); its decisions would be missing. "
            + "Remove it to import");
      } else {
        out.add(Tree.string(n.location(), n.path(), name));
      }
    }
    return out;
  }
}
