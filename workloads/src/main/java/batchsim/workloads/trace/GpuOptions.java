package batchsim.workloads.trace;

/**
 * How the Alibaba trace's GPUs become a Kubernetes resource, for pods and nodes alike.
 *
 * @param resource the extended resource name, e.g. {@code nvidia.com/gpu}
 * @param milli false: whole GPUs, a pod sharing a fraction of one GPU requests a whole one (what the
 *     device plugin would do); true: thousandths of a GPU, so that GPU-sharing pods pack as in the traced
 *     cluster (a node with 8 GPUs has 8000)
 */
public record GpuOptions(String resource, boolean milli) {
  public static final GpuOptions DEFAULT = new GpuOptions("nvidia.com/gpu", false);

  /** Amount of {@link #resource} for {@code gpus} GPUs of which a pod uses {@code perGpuMilli}/1000 each. */
  long amount(long gpus, long perGpuMilli) {
    if (gpus == 0) {
      return 0;
    }
    return milli ? gpus * Math.min(perGpuMilli <= 0 ? 1000 : perGpuMilli, 1000) : gpus;
  }
}
