package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Trace job ids name their workloads, so a repeated one is an error at the line that repeats it. */
class TraceDuplicateIdsTest {
  @Test
  void repeatedJobId_reportedAtItsSecondLine_withTheFirst() {
    assertEquals(List.of("src/test/resources/traces/duplicate-ids.swf:4:1: workloads.traces[0]: job id '2' again "
        + "(first at line 3); 1 more repeated ids follow: job ids name the workloads (jobs-2), so each must be unique"),
        TraceScenarioTest.problems(TraceScenarioTest.CPU_CLUSTER + """
            workloads:
              traces:
                - {format: swf, name: jobs, path: duplicate-ids.swf, queue: hpc/main}
            """));
  }
}
