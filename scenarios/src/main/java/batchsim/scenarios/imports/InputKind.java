package batchsim.scenarios.imports;

import batchsim.workloads.trace.TraceFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What an input file of {@code batchsim import} holds, told by its extension and first line; a gzip-compressed
 * trace ({@code .swf.gz}, {@code .csv.gz}, or gzip by its first bytes) is told by what it decompresses to.
 */
enum InputKind {
  /** Kubernetes objects: Kueue's, Nodes, Jobs/JobSets/Pods (or a Kueue generator file; told later). */
  MANIFESTS,
  SWF,
  PHILLY,
  /** {@code vc,node num}: the Helios simulator's Philly VC sizes. */
  PHILLY_VCS,
  ALIBABA_PODS,
  ALIBABA_NODES;

  /** The kind of {@code file}, or throws with a sentence saying why it is not known. */
  static InputKind of(Path file) throws IOException {
    String name = TraceFiles.kindName(file);
    if (name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json")) {
      return MANIFESTS;
    }
    if (name.endsWith(".swf")) {
      return SWF;
    }
    String header;
    try (BufferedReader r = TraceFiles.open(file, file.toString())) {
      header = r.readLine();
    }
    header = header == null ? "" : header.replace("\uFEFF", "").trim();
    if (header.startsWith(";")) {
      return SWF;
    }
    if (header.contains("num_gpus") && header.contains("cluster")) {
      return PHILLY;
    }
    if (header.startsWith("vc,") && header.contains("node num")) {
      return PHILLY_VCS;
    }
    if (header.contains("creation_time") && header.contains("cpu_milli")) {
      return ALIBABA_PODS;
    }
    if (header.startsWith("sn,") && header.contains("cpu_milli")) {
      return ALIBABA_NODES;
    }
    throw new IllegalArgumentException(file + ": not a file batchsim imports (Kubernetes YAML/JSON, a Kueue generator "
        + "file, .swf, or the Philly, Philly VC, Alibaba pod or Alibaba node CSV); its first line is '" + header + "'");
  }
}
