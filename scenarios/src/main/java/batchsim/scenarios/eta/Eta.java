package batchsim.scenarios.eta;

import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.SimulationSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * {@code batchsim eta}'s answer: the snapshot played R times with seeds {@code seed, seed+1, ...} (runtimes
 * drawn per seed), each replica stopped once every asked workload has started; per workload the p10/p50/p90
 * of the time to quota reservation, admission and start, and why not sooner, counted over replicas.
 */
public final class Eta {
  /** Percentiles (nearest rank) in ms from t = 0; {@link #NEVER} where a percentile falls on a replica in which it never happened. */
  public record Times(long p10, long p50, long p90, int never) {
    public static final long NEVER = WorkloadRecord.NEVER;
  }

  /** Something said of a workload, and in how many replicas. */
  public record Count(String what, int replicas) {}

  /** One replica's times for one workload (ms; {@link Times#NEVER} when not reached). */
  public record ReplicaTimes(long seed, long reservedMs, long admittedMs, long startedMs) {}

  /**
   * The answer for one asked workload.
   *
   * @param pendingAtSnapshot Kueue's reason and message for it at the end of t = 0 ({@code reason: message})
   * @param lastPending its last pending message before it got quota
   * @param releasedBy workloads whose finish let it in
   * @param preempts workloads preempted to make room for it
   */
  public record Job(EtaSnapshot.Asked asked, String clusterQueue, Times reserved, Times admitted, Times started,
      List<Count> pendingAtSnapshot, List<Count> lastPending, List<Count> releasedBy, List<Count> preempts,
      List<ReplicaTimes> replicas) {}

  /** The whole answer: what it rests on and one entry per asked workload, in argument order. */
  public record Answer(EtaSnapshot.Loaded loaded, long firstSeed, int replicas, List<Job> jobs) {}

  private Eta() {}

  /** Plays {@code loaded} {@code replicas} times (seeds from the scenario's, or {@code seed} when not null). */
  public static Answer ask(EtaSnapshot.Loaded loaded, int replicas, Long seed) {
    SimulationSpec spec = loaded.scenario().spec();
    long first = seed != null ? seed : spec.seed();
    List<String> ids = loaded.asked().stream().map(EtaSnapshot.Asked::id).toList();
    List<List<EtaReplica.Outcome>> runs = play(spec, ids, first, replicas);
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      int at = i;
      List<EtaReplica.Outcome> o = runs.stream().map(run -> run.get(at)).toList();
      List<ReplicaTimes> times = new ArrayList<>();
      for (int r = 0; r < o.size(); r++) {
        times.add(new ReplicaTimes(first + r, o.get(r).reservedMs(), o.get(r).admittedMs(), o.get(r).startedMs()));
      }
      String cq = o.stream().map(EtaReplica.Outcome::clusterQueue).filter(q -> q != null).findFirst().orElse(null);
      jobs.add(new Job(loaded.asked().get(i), cq, times(o, EtaReplica.Outcome::reservedMs),
          times(o, EtaReplica.Outcome::admittedMs), times(o, EtaReplica.Outcome::startedMs),
          counts(o, x -> List.of(said(x.pendingAtSnapshot()))), counts(o, x -> List.of(said(x.lastPending()))),
          counts(o, EtaReplica.Outcome::releasedBy), counts(o, EtaReplica.Outcome::preempted), times));
    }
    return new Answer(loaded, first, replicas, jobs);
  }

  /** The replicas on every core (each its own world and seed: results do not depend on the threads). */
  private static List<List<EtaReplica.Outcome>> play(SimulationSpec spec, List<String> ids, long first, int replicas) {
    int threads = Math.min(replicas, Runtime.getRuntime().availableProcessors());
    if (threads <= 1) {
      List<List<EtaReplica.Outcome>> out = new ArrayList<>();
      for (int r = 0; r < replicas; r++) {
        out.add(EtaReplica.play(spec.withSeed(first + r), ids));
      }
      return out;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(null, r, "eta-replica", 64L << 20); // the engine recurses as the CLI's -Xss allows
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<List<EtaReplica.Outcome>>> futures = new ArrayList<>();
      for (int r = 0; r < replicas; r++) {
        long seed = first + r;
        futures.add(pool.submit(() -> EtaReplica.play(spec.withSeed(seed), ids)));
      }
      List<List<EtaReplica.Outcome>> out = new ArrayList<>();
      for (Future<List<EtaReplica.Outcome>> f : futures) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static String said(String[] reasonMessage) {
    return reasonMessage[1].isEmpty() ? "" : reasonMessage[0].isEmpty() ? reasonMessage[1]
        : reasonMessage[0] + ": " + reasonMessage[1];
  }

  private static Times times(List<EtaReplica.Outcome> o, Function<EtaReplica.Outcome, Long> f) {
    long[] v = o.stream().mapToLong(x -> f.apply(x) == WorkloadRecord.NEVER ? Long.MAX_VALUE : f.apply(x)).toArray();
    Arrays.sort(v);
    int never = (int) Arrays.stream(v).filter(x -> x == Long.MAX_VALUE).count();
    return new Times(rank(v, 0.10), rank(v, 0.50), rank(v, 0.90), never);
  }

  private static long rank(long[] sorted, double q) {
    long v = sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
    return v == Long.MAX_VALUE ? Times.NEVER : v;
  }

  /** What the replicas said, most often first (ties in first-seen order); empty strings are not counted. */
  private static List<Count> counts(List<EtaReplica.Outcome> o, Function<EtaReplica.Outcome, List<String>> f) {
    Map<String, Integer> n = new LinkedHashMap<>();
    for (EtaReplica.Outcome x : o) {
      f.apply(x).stream().distinct().filter(s -> !s.isEmpty()).forEach(s -> n.merge(s, 1, Integer::sum));
    }
    List<Count> out = new ArrayList<>();
    n.forEach((k, v) -> out.add(new Count(k, v)));
    out.sort((a, b) -> Integer.compare(b.replicas(), a.replicas()));
    return out;
  }
}
