package batchsim.workloads.trace;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one pass over a trace found, before any run: used to report problems when a scenario is loaded and
 * to describe traces on import.
 *
 * @param records jobs read (malformed lines not counted)
 * @param sorted whether submission times never decrease in file order
 * @param firstUnsortedLine the first line submitted before its predecessor, or 0
 * @param malformed the first malformed lines, in file order
 * @param malformedCount all malformed lines
 * @param selected jobs that pass drops and window (before sampling)
 * @param firstCreatedMs virtual arrival of the first selected job (-1 when none)
 * @param lastCreatedMs virtual arrival of the last selected job (-1 when none)
 * @param maxUnits the largest selected job, in the format's unit
 * @param queues LocalQueue → use, in order of first appearance
 * @param priorityClasses priority class → first line that routes to it
 * @param header the file's header metadata (SWF)
 * @param duplicate the first selected job whose id an earlier selected job has, or null
 */
public record TraceStats(
    long records,
    boolean sorted,
    int firstUnsortedLine,
    List<TraceFormatException> malformed,
    long malformedCount,
    long selected,
    long droppedUnknown,
    long droppedCancelled,
    long droppedFailed,
    long outsideWindow,
    long firstCreatedMs,
    long lastCreatedMs,
    int maxUnits,
    Map<String, QueueUse> queues,
    Map<String, Integer> priorityClasses,
    Map<String, String> header,
    DuplicateId duplicate) {

  /** A job id seen again: at {@code line}, first at {@code firstLine}; {@code more} further repeats after it. */
  public record DuplicateId(String id, int line, int firstLine, long more) {}

  /**
   * The selected jobs routed to one LocalQueue.
   *
   * @param value the attribute value that routed the first of them (or null when routed by a fixed queue)
   * @param firstLine the line of the first of them
   * @param resources every resource their pods request
   */
  public record QueueUse(String queue, String value, long jobs, int firstLine, Set<String> resources,
      long unitSeconds) {}
}
