package batchsim.workloads.trace;

import java.io.BufferedReader;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pod list of Alibaba's GPU cluster trace (cluster-trace-gpu-v2023, {@code openb_pod_list_*.csv}): one
 * pod per line with its cpu (milli-cores), memory (MiB) and GPU requests, creation, scheduling and
 * deletion times in seconds. Each pod is one job of one pod. It ran from {@code scheduled_time} to
 * {@code deletion_time}; a pod never scheduled (empty {@code scheduled_time}) counts as cancelled and its
 * runtime is its lifetime. Attributes: {@code qos}, {@code phase}, {@code gpuSpec}.
 */
final class AlibabaPodReader extends CsvReader<TraceJob> {
  static final List<String> COLUMNS = List.of("name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli",
      "creation_time", "deletion_time", "scheduled_time");

  private final GpuOptions gpu;

  AlibabaPodReader(BufferedReader in, String file, OnError onError, GpuOptions gpu) {
    super(in, file, onError, COLUMNS);
    this.gpu = gpu;
  }

  @Override
  TraceJob parse(Row row) {
    String name = row.required("name", "the pod name");
    long cpu = row.nonNegative("cpu_milli");
    long memory = row.mebibytes("memory_mib");
    long gpus = row.nonNegative("num_gpu");
    long gpuMilli = row.nonNegative("gpu_milli");
    long created = row.nonNegative("creation_time");
    long deleted = row.nonNegative("deletion_time");
    boolean scheduled = !row.text("scheduled_time").isEmpty();
    long start = scheduled ? row.nonNegative("scheduled_time") : created;
    if (start < created) {
      throw row.bad("scheduled_time", "scheduled (" + start + ") before created (" + created + ")");
    }
    if (deleted < start) {
      throw row.bad("deletion_time", "deleted (" + deleted + ") before " + (scheduled ? "scheduled" : "created")
          + " (" + start + ")");
    }
    Map<String, Long> requests = new TreeMap<>();
    requests.put("cpu", cpu);
    requests.put("memory", memory);
    long g = gpu.amount(gpus, gpuMilli);
    if (g > 0) {
      requests.put(gpu.resource(), g);
    }
    String phase = row.text("pod_phase");
    JobStatus status = !scheduled ? JobStatus.CANCELLED
        : phase.equals("Succeeded") ? JobStatus.COMPLETED
        : phase.equals("Failed") ? JobStatus.FAILED
        : JobStatus.UNKNOWN;
    return new TraceJob(name, row.line, created * 1000, (deleted - start) * 1000, TraceJob.UNKNOWN, status, 1,
        requests, Map.of("qos", row.text("qos"), "phase", phase, "gpuSpec", row.text("gpu_spec")));
  }
}
