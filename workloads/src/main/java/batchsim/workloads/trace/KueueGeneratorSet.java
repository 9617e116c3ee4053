package batchsim.workloads.trace;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One {@code workloadsSet} of one ClusterQueue in a Kueue scheduler performance-test generator file
 * ({@code test/performance/scheduler/configs/<name>/generator.yaml}). Kueue's generator creates, for each
 * of {@code count} rounds, one workload of every template in turn, sleeping {@code intervalMs} before each
 * creation; ids follow its naming, {@code <namespace>/<class>-<set>-<round>-<template>}.
 *
 * @param speedup divides every gap, like a trace's speed-up
 */
public record KueueGeneratorSet(String namespace, String localQueue, int setIndex, long intervalMs, long count,
    List<Template> templates, double speedup) implements WorkloadSourceSpec {

  /** One workload template: Kueue's generator gives it one pod set {@code main}. */
  public record Template(String className, long runtimeMs, int priority, List<PodSetSpec> podSets) {}

  public KueueGeneratorSet {
    templates = List.copyOf(templates);
    if (templates.isEmpty() || count < 0 || intervalMs < 0 || !(speedup > 0)) {
      throw new IllegalArgumentException("a generator set needs templates, count >= 0, interval >= 0, speedup > 0");
    }
  }

  @Override
  public String name() {
    return localQueue + "#" + setIndex;
  }

  @Override
  public WorkloadSource open(SplittableRandom random) {
    return new WorkloadSource() {
      private long round;
      private int template;
      private long n;

      @Override
      public WorkloadSpec next() {
        if (round >= count) {
          return null;
        }
        n++;
        Template t = templates.get(template);
        long created = (long) Math.floor(n * intervalMs / speedup);
        WorkloadSpec w = new WorkloadSpec(namespace + "/" + t.className() + "-" + setIndex + "-" + round + "-" + template,
            t.className(), localQueue, created, t.priority(), null, t.podSets(), t.runtimeMs());
        if (++template == templates.size()) {
          template = 0;
          round++;
        }
        return w;
      }
    };
  }
}
