package batchsim.workloads.trace;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * Sorts trace jobs by submission time, stably (ties keep file order). Up to {@code buffer} jobs are sorted
 * in memory; a longer trace is cut into sorted runs of that size written to temporary files, which are
 * then merged, so memory stays bounded by the buffer whatever the trace's length. Temporary files are
 * deleted on {@link Jobs#close()} (and at JVM exit, should a run be abandoned).
 */
final class ExternalSorter {
  private static final Comparator<Seq> ORDER =
      Comparator.comparingLong((Seq s) -> s.job.submitMs()).thenComparingLong(s -> s.seq);

  private ExternalSorter() {}

  private record Seq(long seq, TraceJob job) {}

  /** Reads {@code in} to the end and returns its jobs in submission order. */
  static Jobs sort(Jobs in, int buffer) {
    List<Seq> chunk = new ArrayList<>();
    List<Path> runs = new ArrayList<>();
    long seq = 0;
    try {
      TraceJob j;
      while ((j = in.next()) != null) {
        chunk.add(new Seq(seq++, j));
        if (chunk.size() >= buffer) {
          runs.add(spill(chunk));
          chunk.clear();
        }
      }
    } catch (RuntimeException e) {
      runs.forEach(ExternalSorter::delete);
      throw e;
    } finally {
      in.close();
    }
    chunk.sort(ORDER);
    return runs.isEmpty() ? inMemory(chunk) : merge(runs, chunk);
  }

  private static Jobs inMemory(List<Seq> sorted) {
    Iterator<Seq> it = sorted.iterator();
    return new Jobs() {
      @Override
      public TraceJob next() {
        return it.hasNext() ? it.next().job : null;
      }

      @Override
      public void close() {}
    };
  }

  private static Path spill(List<Seq> chunk) {
    chunk.sort(ORDER);
    try {
      Path f = Files.createTempFile("batchsim-trace-", ".run");
      f.toFile().deleteOnExit();
      try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(f), 1 << 16))) {
        for (Seq s : chunk) {
          write(out, s);
        }
      }
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a temporary file to sort the trace: " + e.getMessage(), e);
    }
  }

  /** A k-way merge of the runs on disk and the last, in-memory chunk. */
  private static Jobs merge(List<Path> runs, List<Seq> last) {
    List<DataInputStream> inputs = new ArrayList<>();
    PriorityQueue<Head> heads = new PriorityQueue<>(Comparator.comparing((Head h) -> h.current, ORDER));
    try {
      for (Path p : runs) {
        DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(p), 1 << 16));
        inputs.add(in);
        Head h = new Head(in, null);
        if (h.advance()) {
          heads.add(h);
        }
      }
    } catch (IOException e) {
      inputs.forEach(ExternalSorter::closeQuietly);
      runs.forEach(ExternalSorter::delete);
      throw new UncheckedIOException(e);
    }
    Head mem = new Head(null, last.iterator());
    if (mem.advance()) {
      heads.add(mem);
    }
    return new Jobs() {
      @Override
      public TraceJob next() {
        Head h = heads.poll();
        if (h == null) {
          return null;
        }
        TraceJob j = h.current.job;
        if (h.advance()) {
          heads.add(h);
        }
        return j;
      }

      @Override
      public void close() {
        inputs.forEach(ExternalSorter::closeQuietly);
        runs.forEach(ExternalSorter::delete);
      }
    };
  }

  /** The next job of one sorted run. */
  private static final class Head {
    final DataInputStream in;
    final Iterator<Seq> memory;
    Seq current;

    Head(DataInputStream in, Iterator<Seq> memory) {
      this.in = in;
      this.memory = memory;
    }

    boolean advance() {
      if (memory != null) {
        current = memory.hasNext() ? memory.next() : null;
        return current != null;
      }
      try {
        current = read(in);
      } catch (EOFException e) {
        current = null;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return current != null;
    }
  }

  private static void write(DataOutputStream out, Seq s) throws IOException {
    TraceJob j = s.job;
    out.writeLong(s.seq);
    out.writeUTF(j.id());
    out.writeInt(j.line());
    out.writeLong(j.submitMs());
    out.writeLong(j.runtimeMs());
    out.writeLong(j.requestedMs());
    out.writeByte(j.status().ordinal());
    out.writeInt(j.units());
    out.writeShort(j.perPod().size());
    for (Map.Entry<String, Long> e : j.perPod().entrySet()) {
      out.writeUTF(e.getKey());
      out.writeLong(e.getValue());
    }
    out.writeShort(j.attributes().size());
    for (Map.Entry<String, String> e : j.attributes().entrySet()) {
      out.writeUTF(e.getKey());
      out.writeUTF(e.getValue());
    }
  }

  private static Seq read(DataInputStream in) throws IOException {
    long seq = in.readLong();
    String id = in.readUTF();
    int line = in.readInt();
    long submit = in.readLong();
    long runtime = in.readLong();
    long requested = in.readLong();
    JobStatus status = JobStatus.values()[in.readByte()];
    int units = in.readInt();
    int n = in.readShort();
    Map<String, Long> perPod = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      perPod.put(in.readUTF(), in.readLong());
    }
    n = in.readShort();
    Map<String, String> attributes = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      attributes.put(in.readUTF(), in.readUTF());
    }
    return new Seq(seq, new TraceJob(id, line, submit, runtime, requested, status, units, perPod, attributes));
  }

  private static void closeQuietly(DataInputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // a temp file we are about to delete
    }
  }

  private static void delete(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // deleteOnExit is the fallback
    }
  }
}
