package batchsim.core.world;

import java.util.List;

/** A block of time-series columns: named once, then filled per sample. */
public interface SampleSource {
  SampleSource NONE = new SampleSource() {
    @Override
    public List<String> columns() {
      return List.of();
    }

    @Override
    public int sample(long[] row, int c) {
      return c;
    }
  };

  List<String> columns();

  /** Fills the columns of {@link #columns()} from {@code c} on; returns the next column. */
  int sample(long[] row, int c);
}
