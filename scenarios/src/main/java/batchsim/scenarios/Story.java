package batchsim.scenarios;

import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;

/**
 * A scenario's {@code story:} block: the Kueue integration test it transcribes ({@code source}, the test file
 * under Kueue's repository at the pinned commit; {@code it}, the {@code ginkgo.It} name), and optionally why it
 * is skipped ({@code skip}: the capability batchsim lacks) or known to fail ({@code fails}: what the engine
 * gets wrong, until it is fixed). {@code batchsim stories DIR} runs them.
 */
public record Story(String source, String it, String skip, String fails) {
  /** The block of {@code root}, or null when it has none; problems go to {@code problems}. */
  static Story read(Node root, Problems problems) {
    if (!(root instanceof MapNode m) || m.get("story") == null || m.get("story").isNull()) {
      return null;
    }
    Fields f = Fields.of(m.get("story"), problems, "source", "it", "skip", "fails");
    ScalarNode source = Values.scalar(f.required("source"), problems, "a string");
    ScalarNode it = Values.scalar(f.required("it"), problems, "a string");
    if (f.has("skip") && f.has("fails")) {
      problems.at(f.get("fails"), "a story is either skipped or known to fail, not both");
    }
    return new Story(source == null ? null : source.text(), it == null ? null : it.text(),
        f.string("skip", null), f.string("fails", null));
  }

  public boolean skipped() {
    return skip != null;
  }
}
