package batchsim.workloads.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The trace formats batchsim reads, with the attributes each offers for routing jobs to queues. */
public enum TraceFormat {
  /** Parallel Workloads Archive Standard Workload Format; the size is in processors. */
  SWF("swf", "processors", List.of("user", "group", "executable", "queue", "partition")),
  /** Pollux's per-job Philly table; the size is in GPUs. */
  PHILLY("philly", "GPUs", List.of("vc")),
  /** Alibaba cluster-trace-gpu-v2023 pod list; every job is one pod with its own requests. */
  ALIBABA("alibaba", "pods", List.of("qos", "phase", "gpuSpec"));

  private final String id;
  private final String unit;
  private final List<String> attributes;

  TraceFormat(String id, String unit, List<String> attributes) {
    this.id = id;
    this.unit = unit;
    this.attributes = attributes;
  }

  /** The name used in scenarios ({@code format: swf}). */
  public String id() {
    return id;
  }

  /** What a job's size counts. */
  public String unit() {
    return unit;
  }

  /** Attributes a mapping may route by ({@code queueFrom}, {@code priorityFrom}, {@code classFrom}). */
  public List<String> attributes() {
    return attributes;
  }

  /** The format named {@code id}, or null. */
  public static TraceFormat byId(String id) {
    for (TraceFormat f : values()) {
      if (f.id.equals(id.toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    return null;
  }

  /**
   * Opens {@code path} lazily, gzip or not ({@link TraceFiles}); {@code displayName} names it in messages.
   * A CSV header that lacks a column
   * throws a {@link TraceFormatException} here, whatever {@code onError} says.
   */
  public LineReader<TraceJob> open(Path path, String displayName, OnError onError, GpuOptions gpu)
      throws IOException {
    BufferedReader in = TraceFiles.open(path, displayName);
    try {
      return reader(in, displayName, onError, gpu);
    } catch (RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** A reader over {@code in}, for tests and streams that are not files. */
  public LineReader<TraceJob> reader(BufferedReader in, String displayName, OnError onError, GpuOptions gpu) {
    switch (this) {
      case SWF: return new SwfReader(in, displayName, onError);
      case PHILLY: return new PhillyReader(in, displayName, onError);
      default: return new AlibabaPodReader(in, displayName, onError, gpu);
    }
  }
}
