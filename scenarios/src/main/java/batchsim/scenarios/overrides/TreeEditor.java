package batchsim.scenarios.overrides;

import batchsim.scenarios.overrides.SetPath.Segment;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Puts one {@link Assignment} into a tree, returning a new tree (nodes are immutable). Missing maps on
 * the way are created; list items must exist. Two aliases save spelling out Kueue's nesting:
 * {@code nodePools.<pool>...} means {@code cluster.nodePools.<pool>...}, and inside a ClusterQueue or
 * cohort {@code quota.<flavor>.<resource>[.nominalQuota|.borrowingLimit|.lendingLimit]} means that
 * resource's entry in whichever resource group lists the flavor (nominalQuota when no field is given).
 */
final class TreeEditor {
  private static final Set<String> QUOTA_FIELDS = Set.of("nominalQuota", "borrowingLimit", "lendingLimit");
  private static final Set<String> QUOTA_OWNERS = Set.of("clusterQueues", "cohorts");

  private final Assignment override;

  private TreeEditor(Assignment override) {
    this.override = override;
  }

  /** {@code root} with the override applied, or {@code root} unchanged after reporting why not. */
  static Node apply(Node root, Assignment o, IssueSink sink) {
    List<Segment> segs = o.path().segments();
    if (root instanceof MapNode m && isPlain(segs.get(0), "nodePools") && m.get("nodePools") == null) {
      List<Segment> aliased = new ArrayList<>();
      aliased.add(new Segment("cluster", true));
      aliased.addAll(segs);
      segs = aliased;
    }
    try {
      return new TreeEditor(o).put(root, segs, 0, null);
    } catch (Failed f) {
      sink.report(o.at(), o.where(), f.getMessage());
      return root;
    }
  }

  /**
   * The subtree {@code node} (null when absent) with the value put at {@code segs[i..]}.
   * {@code listKey} is the map key of the list that {@code node} is an item of, if it is one.
   */
  private Node put(Node node, List<Segment> segs, int i, String listKey) {
    if (i == segs.size()) {
      return override.value();
    }
    if (node == null || node.isNull()) {
      node = Trees.emptyMap(override.value().location());
    }
    if (node instanceof MapNode m) {
      int end = match(m.entries().keySet(), segs, i);
      if (end < 0 && listKey != null && QUOTA_OWNERS.contains(listKey) && isPlain(segs.get(i), "quota")) {
        return put(m, quotaPath(m, segs, i, listKey), i, listKey);
      }
      String key = end < 0 ? segs.get(i).text() : join(segs, i, end);
      Node updated = put(m.get(key), segs, end < 0 ? i + 1 : end, key);
      return Trees.with(m, key, updated);
    }
    if (node instanceof ListNode l) {
      int[] found = item(l, segs, i, listKey);
      return Trees.with(l, found[0], put(l.items().get(found[0]), segs, found[1], listKey));
    }
    throw new Failed(where(node) + " is " + node.describe() + ", not a map, so it has no '"
        + join(segs, i, segs.size()) + "'");
  }

  /** {index, end}: the item named by the longest run of segments from {@code i}, or by an index. */
  private int[] item(ListNode l, List<Segment> segs, int i, String listKey) {
    Segment s = segs.get(i);
    if (!(s.exact() && isIndex(s.text()))) {
      for (int end = segs.size(); end > i; end--) {
        if (joinable(segs, i, end)) {
          String name = join(segs, i, end);
          for (int k = 0; k < l.items().size(); k++) {
            String id = Trees.identity(l.items().get(k));
            if (name.equals(id) || name.equals(plainName(l.items().get(k)))) {
              return new int[] {k, end};
            }
          }
        }
      }
    }
    if (isIndex(s.text())) {
      int k = Integer.parseInt(s.text());
      if (k < l.items().size()) {
        return new int[] {k, i + 1};
      }
      throw new Failed(where(l) + " has " + l.items().size() + " items, so there is no [" + k + "]");
    }
    throw new Failed("no item named '" + s.text() + "' in " + where(l, listKey) + " " + known(Trees.names(l)));
  }

  /** Rewrites {@code quota.<flavor>.<resource>[.<field>]} at {@code segs[at..]} to its concrete path. */
  private List<Segment> quotaPath(MapNode owner, List<Segment> segs, int at, String listKey) {
    String ownerName = (listKey.equals("cohorts") ? "cohort '" : "ClusterQueue '") + Trees.identity(owner) + "'";
    List<int[]> flavorIndex = new ArrayList<>(); // {group, flavor}
    List<String> flavorNames = new ArrayList<>();
    List<MapNode> flavorNodes = new ArrayList<>();
    if (owner.get("resourceGroups") instanceof ListNode groups) {
      for (int g = 0; g < groups.items().size(); g++) {
        if (groups.items().get(g) instanceof MapNode group && group.get("flavors") instanceof ListNode fl) {
          for (int f = 0; f < fl.items().size(); f++) {
            String name = plainName(fl.items().get(f));
            if (name != null) {
              flavorIndex.add(new int[] {g, f});
              flavorNames.add(name);
              flavorNodes.add((MapNode) fl.items().get(f));
            }
          }
        }
      }
    }
    if (at + 1 >= segs.size()) {
      throw new Failed("'quota' needs a flavor and a resource, e.g. quota.<flavor>.<resource>; " + ownerName
          + " has flavors " + known(flavorNames));
    }
    int flavorEnd = -1;
    int which = -1;
    for (int end = segs.size(); end > at + 1 && which < 0; end--) {
      if (joinable(segs, at + 1, end)) {
        which = flavorNames.indexOf(join(segs, at + 1, end));
        flavorEnd = end;
      }
    }
    if (which < 0) {
      throw new Failed(ownerName + " has no flavor '" + segs.get(at + 1).text() + "' in its resourceGroups "
          + known(flavorNames));
    }
    List<String> resources = new ArrayList<>();
    if (flavorNodes.get(which).get("resources") instanceof ListNode rl) {
      rl.items().forEach(r -> resources.add(plainName(r)));
    }
    String flavor = flavorNames.get(which);
    if (flavorEnd == segs.size()) {
      throw new Failed("quota." + flavor + " needs a resource, e.g. quota." + flavor + "."
          + (resources.isEmpty() ? "cpu" : resources.get(0)));
    }
    for (int end = segs.size(); end > flavorEnd; end--) {
      int r = joinable(segs, flavorEnd, end) ? resources.indexOf(join(segs, flavorEnd, end)) : -1;
      if (r < 0) {
        continue;
      }
      String field = "nominalQuota";
      if (end < segs.size()) {
        if (end + 1 != segs.size() || !QUOTA_FIELDS.contains(segs.get(end).text())) {
          continue;
        }
        field = segs.get(end).text();
      }
      int[] gf = flavorIndex.get(which);
      List<Segment> out = new ArrayList<>(segs.subList(0, at));
      out.add(new Segment("resourceGroups", true));
      out.add(new Segment(Integer.toString(gf[0]), true));
      out.add(new Segment("flavors", true));
      out.add(new Segment(Integer.toString(gf[1]), true));
      out.add(new Segment("resources", true));
      out.add(new Segment(Integer.toString(r), true));
      out.add(new Segment(field, true));
      return out;
    }
    throw new Failed("flavor '" + flavor + "' of " + ownerName + " has no quota for '"
        + join(segs, flavorEnd, segs.size()) + "' " + known(resources)
        + "; a field after the resource must be one of nominalQuota, borrowingLimit, lendingLimit");
  }

  /** The end of the longest run of segments from {@code i} that is a key of {@code keys}, or -1. */
  private static int match(Collection<String> keys, List<Segment> segs, int i) {
    for (int end = segs.size(); end > i; end--) {
      if (joinable(segs, i, end) && keys.contains(join(segs, i, end))) {
        return end;
      }
    }
    return -1;
  }

  /** A run of more than one segment may be joined only if none of them was bracketed. */
  private static boolean joinable(List<Segment> segs, int from, int to) {
    if (to - from == 1) {
      return true;
    }
    for (int k = from; k < to; k++) {
      if (segs.get(k).exact()) {
        return false;
      }
    }
    return true;
  }

  private static String join(List<Segment> segs, int from, int to) {
    StringBuilder sb = new StringBuilder();
    for (int k = from; k < to; k++) {
      sb.append(k == from ? "" : ".").append(segs.get(k).text());
    }
    return sb.toString();
  }

  private static boolean isPlain(Segment s, String text) {
    return !s.exact() && s.text().equals(text);
  }

  private static boolean isIndex(String s) {
    return !s.isEmpty() && s.length() < 10 && s.chars().allMatch(Character::isDigit);
  }

  private static String plainName(Node item) {
    return item instanceof MapNode m && m.get("name") instanceof ScalarNode s && !s.isNull() ? s.text() : null;
  }

  private static String where(Node n) {
    return n.path().isEmpty() ? "the top level" : n.path();
  }

  private static String where(ListNode l, String listKey) {
    return l.path().isEmpty() ? listKey : l.path();
  }

  private static String known(List<String> names) {
    return names.isEmpty() ? "(none defined)" : "(known: " + String.join(", ", names) + ")";
  }

  /** Unwinds the walk after a problem; the message is reported at the override. */
  private static final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failed(String message) {
      super(message, null, false, false);
    }
  }
}
