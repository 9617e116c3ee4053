package batchsim.workloads.trace;

import java.util.Map;

/**
 * How a trace job becomes a workload.
 *
 * @param name ids are {@code <name>-<trace id>}; also the workloads' report class unless {@code classFrom}
 * @param classFrom attribute whose value is the report class instead, or null
 * @param queue routes a job to a LocalQueue
 * @param priorityClass routes a job to a priority class (a route to null means none: priority 0)
 * @param priorityValues priority class name → value
 * @param shape the job's pods and their requests
 * @param requestedRuntime run for the user's estimate (SWF requested time) instead of the actual runtime
 * @param runtimeScale multiplies every runtime
 */
public record TraceMapping(String name, String classFrom, Route queue, Route priorityClass,
    Map<String, Integer> priorityValues, PodShape shape, boolean requestedRuntime, double runtimeScale) {

  public TraceMapping {
    priorityValues = Map.copyOf(priorityValues);
    if (!(runtimeScale > 0) || Double.isInfinite(runtimeScale)) {
      throw new IllegalArgumentException("runtimeScale must be > 0");
    }
  }

  /**
   * A value chosen per job: {@code fixed} for every job, or by attribute {@code from} through {@code map},
   * falling back to {@code fixed} and then to the attribute value itself.
   */
  public record Route(String fixed, String from, Map<String, String> map) {
    public Route {
      map = Map.copyOf(map);
    }

    public static Route of(String fixed) {
      return new Route(fixed, null, Map.of());
    }

    /** The value for {@code job}; "" when routed by an attribute the job leaves unknown, null for none. */
    public String resolve(TraceJob job) {
      if (from == null) {
        return fixed;
      }
      String v = job.attribute(from);
      String mapped = map.get(v);
      return mapped != null ? mapped : fixed != null ? fixed : v;
    }
  }

  /**
   * The pods of a job of {@code units} (processors, GPUs): {@code unitsPerPod} units per pod (the last pod
   * gets the remainder), or else the units spread over {@code podsPerJob} pods. Every pod requests
   * {@code perUnit} × its units, plus {@code perPod}, plus what the trace itself states per pod.
   *
   * @param podsPerJob 0 to use {@code unitsPerPod}
   */
  public record PodShape(Map<String, Long> perUnit, Map<String, Long> perPod, int unitsPerPod, int podsPerJob) {
    public PodShape {
      perUnit = Map.copyOf(perUnit);
      perPod = Map.copyOf(perPod);
      if (unitsPerPod < 1 || podsPerJob < 0) {
        throw new IllegalArgumentException("unitsPerPod must be >= 1 and podsPerJob >= 0");
      }
    }

    /** Pod groups as {count, units per pod}, largest pods first. */
    long[][] split(int units) {
      if (podsPerJob > 0) {
        int pods = Math.min(podsPerJob, units);
        int base = units / pods;
        int extra = units % pods;
        return extra == 0 ? new long[][] {{pods, base}} : new long[][] {{extra, base + 1}, {pods - extra, base}};
      }
      int full = units / unitsPerPod;
      int rest = units % unitsPerPod;
      if (full == 0) {
        return new long[][] {{1, rest}};
      }
      return rest == 0 ? new long[][] {{full, unitsPerPod}} : new long[][] {{full, unitsPerPod}, {1, rest}};
    }
  }
}
