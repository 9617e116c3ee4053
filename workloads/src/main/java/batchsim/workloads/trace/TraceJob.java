package batchsim.workloads.trace;

import java.util.Map;

/**
 * One job of a trace in the trace's own terms, before it becomes a workload.
 *
 * @param id the trace's job id (SWF job number, Alibaba pod name, Philly line number)
 * @param line the 1-based line of the file it came from, for messages
 * @param submitMs submission time in the trace's clock (not yet shifted to the simulation's)
 * @param runtimeMs how long it ran, or {@link #UNKNOWN}
 * @param requestedMs the user's runtime estimate (SWF requested time), or {@link #UNKNOWN}
 * @param units the job's size in the trace's unit: processors (SWF), GPUs (Philly), pods (Alibaba: 1);
 *     {@link #UNKNOWN} when the trace does not say
 * @param perPod resources every pod requests as the trace states them, in base units (Alibaba); empty for
 *     traces that only give a size
 * @param attributes the columns a mapping may route by (user, group, vc, qos, ...)
 */
public record TraceJob(
    String id,
    int line,
    long submitMs,
    long runtimeMs,
    long requestedMs,
    JobStatus status,
    int units,
    Map<String, Long> perPod,
    Map<String, String> attributes) {

  public static final int UNKNOWN = -1;

  /** The value of attribute {@code key}, or "" when the trace leaves it unknown. */
  public String attribute(String key) {
    String v = attributes.get(key);
    return v == null ? "" : v;
  }
}
