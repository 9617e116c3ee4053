import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A lean reference DES of des-1m.yaml's workload, the floor bin/bench compares batchsim with: the same
 * 1,000 nodes of 64 cores, the same seven Poisson classes (1 to 64 cores, 89,300 s of arrivals, exponential
 * runtimes with mean 600 s, about 1,000,000 jobs), no Kueue: one FIFO queue whose head starts on the first
 * node with room (a segment tree of free cores), primitive arrays, no allocation per job. Same
 * distributions as des-1m, not the same samples (batchsim splits its random streams its own way).
 *
 *   java scenarios/bench/LeanDes.java [SEED]
 */
public final class LeanDes {
  private static final int NODES = 1000;
  private static final int CORES = 64;
  private static final double UNTIL_S = 89_300;
  private static final double MEAN_RUNTIME_S = 600;
  private static final int[] CLASS_CORES = {1, 2, 4, 8, 16, 32, 64};
  private static final double[] RATE_PER_H = {16128.0, 6048.0, 6048.0, 6048.0, 3225.6, 2016.0, 806.4};

  // Max free cores over node ranges; leaves at [LEAVES, 2 * LEAVES).
  private static final int LEAVES = Integer.highestOneBit(NODES - 1) << 1;
  private static final int[] tree = new int[2 * LEAVES];

  // Running jobs' finish times: a binary min-heap, payload node * 128 + cores.
  private static double[] finishAt = new double[1024];
  private static int[] finishJob = new int[1024];
  private static int running;

  // The FIFO queue: cores and arrival time per waiting job, a growing ring.
  private static int[] queueCores = new int[1024];
  private static double[] queueSince = new double[1024];
  private static int head;
  private static int tail;

  private static long started;
  private static double waitSum;
  private static int maxQueue;

  public static void main(String[] args) {
    long wallStart = System.nanoTime();
    SplittableRandom random = new SplittableRandom(args.length > 0 ? Long.parseLong(args[0]) : 1);
    Arrays.fill(tree, LEAVES, LEAVES + NODES, CORES);
    for (int i = LEAVES - 1; i > 0; i--) {
      tree[i] = Math.max(tree[2 * i], tree[2 * i + 1]);
    }
    double[] nextArrival = new double[CLASS_CORES.length];
    for (int c = 0; c < nextArrival.length; c++) {
      nextArrival[c] = exponential(random, 3600 / RATE_PER_H[c]);
    }
    long arrived = 0;
    while (true) {
      int cls = 0;
      for (int c = 1; c < nextArrival.length; c++) {
        if (nextArrival[c] < nextArrival[cls]) {
          cls = c;
        }
      }
      double arrival = nextArrival[cls] < UNTIL_S ? nextArrival[cls] : Double.POSITIVE_INFINITY;
      if (running > 0 && finishAt[0] <= arrival) {
        double now = finishAt[0];
        int job = finishJob[0];
        popFinish();
        setFree(job >> 7, freeOf(job >> 7) + (job & 127));
        startFromHead(now, random);
      } else if (arrival != Double.POSITIVE_INFINITY) {
        arrived++;
        enqueue(CLASS_CORES[cls], arrival);
        nextArrival[cls] = arrival + exponential(random, 3600 / RATE_PER_H[cls]);
        startFromHead(arrival, random);
      } else {
        break;
      }
    }
    System.out.printf(Locale.ROOT, "lean-des: %,d jobs arrived, %,d started, mean wait %.1f s, longest queue %,d; "
        + "%.2fs wall in main%n", arrived, started, waitSum / Math.max(1, started), maxQueue,
        (System.nanoTime() - wallStart) / 1e9);
  }

  private static double exponential(SplittableRandom r, double mean) {
    return -Math.log(1 - r.nextDouble()) * mean;
  }

  /** Starts queued jobs in order while the head fits on some node (strict FIFO). */
  private static void startFromHead(double now, SplittableRandom random) {
    while (head != tail) {
      int cores = queueCores[head & (queueCores.length - 1)];
      if (tree[1] < cores) {
        return;
      }
      int node = firstFit(cores);
      setFree(node, freeOf(node) - cores);
      waitSum += now - queueSince[head & (queueSince.length - 1)];
      head++;
      started++;
      pushFinish(now + exponential(random, MEAN_RUNTIME_S), node << 7 | cores);
    }
  }

  private static int freeOf(int node) {
    return tree[LEAVES + node];
  }

  private static void setFree(int node, int free) {
    int i = LEAVES + node;
    tree[i] = free;
    for (i >>= 1; i > 0; i >>= 1) {
      tree[i] = Math.max(tree[2 * i], tree[2 * i + 1]);
    }
  }

  /** The lowest-numbered node with at least {@code cores} free (the root says one exists). */
  private static int firstFit(int cores) {
    int i = 1;
    while (i < LEAVES) {
      i = tree[2 * i] >= cores ? 2 * i : 2 * i + 1;
    }
    return i - LEAVES;
  }

  private static void enqueue(int cores, double since) {
    if (tail - head == queueCores.length) {
      int n = queueCores.length;
      int[] c = new int[2 * n];
      double[] s = new double[2 * n];
      for (int k = 0; k < n; k++) {
        c[k] = queueCores[(head + k) & (n - 1)];
        s[k] = queueSince[(head + k) & (n - 1)];
      }
      queueCores = c;
      queueSince = s;
      tail = n;
      head = 0;
    }
    queueCores[tail & (queueCores.length - 1)] = cores;
    queueSince[tail & (queueSince.length - 1)] = since;
    tail++;
    maxQueue = Math.max(maxQueue, tail - head);
  }

  private static void pushFinish(double at, int job) {
    if (running == finishAt.length) {
      finishAt = Arrays.copyOf(finishAt, 2 * running);
      finishJob = Arrays.copyOf(finishJob, 2 * running);
    }
    int i = running++;
    while (i > 0 && finishAt[(i - 1) >> 1] > at) {
      finishAt[i] = finishAt[(i - 1) >> 1];
      finishJob[i] = finishJob[(i - 1) >> 1];
      i = (i - 1) >> 1;
    }
    finishAt[i] = at;
    finishJob[i] = job;
  }

  private static void popFinish() {
    double at = finishAt[--running];
    int job = finishJob[running];
    int i = 0;
    while (true) {
      int c = 2 * i + 1;
      if (c >= running) {
        break;
      }
      if (c + 1 < running && finishAt[c + 1] < finishAt[c]) {
        c++;
      }
      if (finishAt[c] >= at) {
        break;
      }
      finishAt[i] = finishAt[c];
      finishJob[i] = finishJob[c];
      i = c;
    }
    finishAt[i] = at;
    finishJob[i] = job;
  }
}
