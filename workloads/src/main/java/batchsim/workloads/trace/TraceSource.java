package batchsim.workloads.trace;

import batchsim.core.model.ResourceSpace;
import batchsim.core.model.WorkloadSource;
import batchsim.core.model.WorkloadSourceSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * A trace file replayed as workloads. Each {@link #open} reads the file afresh and lazily: a sorted trace
 * is never held in memory, only the next job is (an unsorted one is sorted first, in bounded memory; see
 * {@link ExternalSorter}).
 *
 * @param file where the trace is
 * @param displayName how messages name it (the path as the scenario wrote it)
 * @param sort sort by submission time before replay
 */
public record TraceSource(String name, Path file, String displayName, TraceFormat format, GpuOptions gpu,
    TraceSelection selection, TraceMapping mapping, ResourceSpace space, boolean sort) implements WorkloadSourceSpec {

  @Override
  public WorkloadSource open(SplittableRandom random) {
    Pipeline p = pipeline(selection.sample() < 1 ? random.split() : null, selection.onError());
    return new WorkloadSource() {
      @Override
      public batchsim.core.model.WorkloadSpec next() {
        TraceJob j = p.next();
        return j == null ? null : p.workload(j);
      }

      @Override
      public void close() {
        p.close();
      }
    };
  }

  /** The selected jobs in replay order, before mapping (sampling only with a random stream). */
  Pipeline pipeline(SplittableRandom sampling, OnError onError) {
    LineReader<TraceJob> reader;
    try {
      reader = format.open(file, displayName, onError, gpu);
    } catch (IOException e) {
      throw new UncheckedIOException(displayName + ": cannot read: " + e.getMessage(), e);
    }
    Jobs jobs = Jobs.of(reader);
    return new Pipeline(sort ? ExternalSorter.sort(jobs, selection.sortBuffer()) : jobs, reader, sampling);
  }

  /** Drops, window, limit and sampling over a stream of jobs in submission order. */
  final class Pipeline implements AutoCloseable {
    private final Jobs jobs;
    private final LineReader<TraceJob> reader;
    private final SplittableRandom sampling;
    private final Mapper mapper = new Mapper(mapping, space);
    private long origin = Long.MIN_VALUE;
    private long previous = Long.MIN_VALUE;
    private int previousLine;
    private long emitted;
    private boolean done;
    long droppedUnknown;
    long droppedCancelled;
    long droppedFailed;
    long outsideWindow;

    Pipeline(Jobs jobs, LineReader<TraceJob> reader, SplittableRandom sampling) {
      this.jobs = jobs;
      this.reader = reader;
      this.sampling = sampling;
    }

    LineReader<TraceJob> reader() {
      return reader;
    }

    Mapper mapper() {
      return mapper;
    }

    /** The next job to replay, or null (and the file is closed) at the end. */
    TraceJob next() {
      TraceSelection s = selection;
      while (!done) {
        TraceJob j = jobs.next();
        if (j == null) {
          close();
          return null;
        }
        if (j.submitMs() < previous) {
          throw new TraceFormatException(displayName, j.line(), 1, "",
              "submitted before the job at line " + previousLine + ": the trace is not sorted by submission time"
                  + " (set sort: true)");
        }
        previous = j.submitMs();
        previousLine = j.line();
        if (origin == Long.MIN_VALUE) {
          origin = j.submitMs();
        }
        if (j.units() <= 0 || j.runtimeMs() < 0) {
          droppedUnknown++;
          continue;
        }
        if (s.dropCancelled() && j.status() == JobStatus.CANCELLED) {
          droppedCancelled++;
          continue;
        }
        if (s.dropFailed() && j.status() == JobStatus.FAILED) {
          droppedFailed++;
          continue;
        }
        long t = j.submitMs() - origin;
        if (t < s.fromMs()) {
          outsideWindow++;
          continue;
        }
        if (t >= s.toMs() || s.limit() != TraceSelection.UNLIMITED && emitted >= s.limit()) {
          close(); // sorted: nothing later can be in the window
          return null;
        }
        if (sampling != null && sampling.nextDouble() >= s.sample()) {
          continue;
        }
        emitted++;
        return j;
      }
      return null;
    }

    /** Virtual creation time of a job {@link #next} returned. */
    long createdMs(TraceJob j) {
      long t = j.submitMs() - origin - selection.fromMs();
      return selection.speedup() == 1 ? t : (long) Math.floor(t / selection.speedup());
    }

    batchsim.core.model.WorkloadSpec workload(TraceJob j) {
      return mapper.map(j, createdMs(j));
    }

    @Override
    public void close() {
      if (!done) {
        done = true;
        jobs.close();
        reader.close();
      }
    }
  }
}
