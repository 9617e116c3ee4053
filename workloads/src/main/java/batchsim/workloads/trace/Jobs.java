package batchsim.workloads.trace;

/** A pull stream of trace jobs: a reader, or a sorted view of one. */
interface Jobs extends AutoCloseable {
  /** The next job, or null at the end. */
  TraceJob next();

  @Override
  void close();

  static Jobs of(LineReader<TraceJob> reader) {
    return new Jobs() {
      @Override
      public TraceJob next() {
        return reader.next();
      }

      @Override
      public void close() {
        reader.close();
      }
    };
  }
}
