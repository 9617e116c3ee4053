package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Objects without a name are reported where they are written; the checks after binding skip them. */
class UnnamedObjectsTest {
  private static final String BASE = """
      name: unnamed
      cluster:
        nodePools:
          - {count: 1, allocatable: {cpu: 4}}
      resourceFlavors:
        - name: f
      cohorts:
        - {parentName: c}
      clusterQueues:
        - name: cq
          resourceGroups:
            - coveredResources: [cpu]
              flavors:
                - {resources: [{name: cpu, nominalQuota: 4}]}
      localQueues:
        - {name: lq, clusterQueue: cq}
      priorityClasses:
        - {value: 5}
      workloads:
        classes:
          - {queue: lq, arrival: {every: 1h}, count: 1, runtime: 1m, podSets: [{requests: {cpu: 1}}]}
      """;

  @Test
  void missingNames_areLocatedProblemsNotCrashes() {
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("u.yaml", BASE));
    assertEquals(List.of(
        "u.yaml:4:7: cluster.nodePools[0]: missing required field 'name'",
        "u.yaml:8:5: cohorts[0]: missing required field 'name'",
        "u.yaml:14:13: clusterQueues[0].resourceGroups[0].flavors[0]: missing required field 'name'",
        "u.yaml:18:5: priorityClasses[0]: missing required field 'name'",
        "u.yaml:21:7: workloads.classes[0]: missing required field 'name'"),
        e.problems().stream().map(Problem::toString).filter(p -> p.contains("missing required field")).toList());
  }
}
