package batchsim.scenarios.yaml;

import java.util.ArrayList;
import java.util.List;

/** A YAML sequence. */
public record ListNode(Location location, String path, List<Node> items) implements Node {
  public ListNode {
    items = List.copyOf(items);
  }

  @Override
  public String describe() {
    return "a list";
  }

  @Override
  public ListNode withPath(String newPath) {
    List<Node> copy = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      copy.add(items.get(i).withPath(Node.itemPath(newPath, i)));
    }
    return new ListNode(location, newPath, copy);
  }
}
