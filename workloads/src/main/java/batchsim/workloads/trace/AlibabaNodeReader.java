package batchsim.workloads.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The node list of Alibaba's GPU cluster trace ({@code openb_node_list_*.csv}: {@code sn,cpu_milli,
 * memory_mib,gpu,model}). A node's GPU model becomes the label {@link #MODEL_LABEL} (absent on CPU-only
 * nodes), so that ResourceFlavors can select GPU types; GPUs become the resource of {@link GpuOptions}.
 */
public final class AlibabaNodeReader extends CsvReader<NodeRecord> {
  /** The label carrying the GPU model, as NVIDIA's GPU feature discovery names it. */
  public static final String MODEL_LABEL = "nvidia.com/gpu.product";
  static final List<String> COLUMNS = List.of("sn", "cpu_milli", "memory_mib", "gpu", "model");

  private final GpuOptions gpu;

  AlibabaNodeReader(BufferedReader in, String file, OnError onError, GpuOptions gpu) {
    super(in, file, onError, COLUMNS);
    this.gpu = gpu;
  }

  /** Opens {@code path}, gzip or not (named {@code displayName} in messages); a bad header throws at once. */
  public static AlibabaNodeReader open(Path path, String displayName, OnError onError, GpuOptions gpu) {
    BufferedReader in;
    try {
      in = TraceFiles.open(path, displayName);
    } catch (IOException e) {
      throw new UncheckedIOException(displayName + ": cannot read: " + e.getMessage(), e);
    }
    try {
      return new AlibabaNodeReader(in, displayName, onError, gpu);
    } catch (RuntimeException e) {
      closeQuietly(in); // a bad header is reported; the file must not stay open
      throw e;
    }
  }

  @Override
  NodeRecord parse(Row row) {
    String name = row.required("sn", "the node name");
    long cpu = row.nonNegative("cpu_milli");
    long memory = row.mebibytes("memory_mib");
    long gpus = row.nonNegative("gpu");
    String model = row.text("model");
    SortedMap<String, String> labels = new TreeMap<>();
    if (!model.isEmpty()) {
      labels.put(MODEL_LABEL, model);
    }
    SortedMap<String, Long> allocatable = new TreeMap<>();
    allocatable.put("cpu", cpu);
    allocatable.put("memory", memory);
    if (gpus > 0) {
      allocatable.put(gpu.resource(), gpu.amount(gpus, 1000));
    }
    return new NodeRecord(name, row.line, labels, List.of(), allocatable);
  }

  private static void closeQuietly(BufferedReader in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // the header error is what the caller reports
    }
  }
}
