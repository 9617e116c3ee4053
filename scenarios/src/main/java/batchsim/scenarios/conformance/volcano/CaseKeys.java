package batchsim.scenarios.conformance.volcano;

import static batchsim.scenarios.conformance.Shape.ANY;
import static batchsim.scenarios.conformance.Shape.listOf;
import static batchsim.scenarios.conformance.Shape.object;

import batchsim.scenarios.conformance.KeyCheck;
import batchsim.scenarios.conformance.Shape;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.List;

/**
 * Every key a Volcano case file may hold (volcano-cases.yaml's conventions), and the check that refuses the
 * others with their location. A node's other keys are its capacities, so a key there is known when its value
 * is a scalar amount (the runner checks the quantity); a case's upper-case keys are placeholders for plugin arguments ({@code LEVEL}).
 */
final class CaseKeys {
  private static final Shape NODE = object("name", "labels", "ready", "unschedulable")
      .with("taints", listOf(object("key", "value", "effect")))
      .orKeys(CaseKeys::isAmount, "a resource with a scalar amount");
  private static final Shape QUEUE = object("name", "parent", "weight", "capability", "deserved", "guarantee",
      "priority", "reclaimable", "state");
  private static final Shape POD_GROUP = object("id", "queue", "minMember", "minTaskMember", "minResources", "phase",
      "priority");
  private static final Shape POD = object("id", "pg", "request", "node", "phase", "preemptable", "role", "priority",
      "nodeSelector");
  private static final Shape EXPECT = object("binds", "evicted", "pipelined", "phases");
  private static final Shape SCHEDULER = object("actions")
      .with("plugins", listOf(object("name", "enabled", "hierarchy", "args", "behaviour")));
  private static final Shape STEP = object("cycle", "before_cycle", "actions", "configured_actions")
      .with("expect", EXPECT).with("add_podgroups", listOf(POD_GROUP)).with("add_pods", listOf(POD));
  /** Identity and prose keys of a case, which a variant may give again like any other key of its case. */
  private static final String[] PROSE = {"id", "what", "why", "after", "behaviour", "caveat"};

  private static final Shape FILE = object("meta", "conventions")
      .with("cases", listOf(caseShape()
          .with("variants", listOf(caseShape()
              .with("add_podgroups", listOf(POD_GROUP)).with("add_pods", listOf(POD))))));

  private CaseKeys() {}

  private static Shape caseShape() {
    return object(PROSE).with("source", object("file", "test", "case")).with("scheduler", SCHEDULER).with("configured_actions", ANY).with("cycles", ANY)
        .with("timeline", listOf(STEP)).with("nodes", listOf(NODE)).with("queues", listOf(QUEUE))
        .with("podgroups", listOf(POD_GROUP)).with("pods", listOf(POD)).with("expect", EXPECT)
        .with("binds_check", ANY)
        .orKeys((key, value) -> key.matches("[A-Z][A-Z_0-9]*"), "an upper-case placeholder such as LEVEL");
  }

  /** A capacity is a number or a quantity string; a boolean or a collection is not (e.g. a misspelt ready). */
  private static boolean isAmount(String resource, Node value) {
    return value instanceof ScalarNode s && s.type() != ScalarNode.Type.BOOL && s.type() != ScalarNode.Type.NULL;
  }

  static List<String> unknownKeys(Node root) {
    return KeyCheck.unknownKeys(root, FILE, false);
  }
}
