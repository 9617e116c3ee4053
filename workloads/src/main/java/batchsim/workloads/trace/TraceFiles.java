package batchsim.workloads.trace;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Opens trace files as text, gzip-compressed or not (the Parallel Workloads Archive ships {@code .swf.gz}).
 * Compression is told by the file's first two bytes, gzip's magic number, not by its name: a compressed
 * file needs no {@code .gz} suffix, and a file named {@code .gz} that is not gzip is refused rather than
 * read as text. Decompression streams, so memory does not grow with the file. A damaged stream is an
 * {@link InvalidGzip} naming the byte of the compressed file where decompression stopped.
 */
public final class TraceFiles {
  private static final int MAGIC_1 = 0x1f;
  private static final int MAGIC_2 = 0x8b;
  private static final int BUFFER = 1 << 16;

  private TraceFiles() {}

  /** {@code path} as UTF-8 text, decompressed when it is gzip; {@code displayName} names it in messages. */
  public static BufferedReader open(Path path, String displayName) throws IOException {
    if (!Files.isRegularFile(path)) { // a device or FIFO would stream forever or block
      throw new IOException(displayName + " is not a regular file; traces are read only from regular files");
    }
    BufferedInputStream in = new BufferedInputStream(Files.newInputStream(path), BUFFER);
    try {
      in.mark(2);
      boolean gzip = in.read() == MAGIC_1 && in.read() == MAGIC_2 || isGzName(path.getFileName().toString());
      in.reset();
      InputStream text = gzip ? new LazyGzip(in, displayName) : in;
      return new BufferedReader(new InputStreamReader(text, StandardCharsets.UTF_8.newDecoder()), BUFFER);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** The file's name without its extension, and without {@code .gz} before it: "log.swf.gz" → "log". */
  public static String baseName(Path file) {
    String s = file.getFileName().toString();
    s = isGzName(s) ? s.substring(0, s.length() - 3) : s;
    int dot = s.lastIndexOf('.');
    return dot > 0 ? s.substring(0, dot) : s;
  }

  /** The file's name without a trailing {@code .gz}, lower-cased, to tell its kind: "Log.SWF.gz" → "log.swf". */
  public static String kindName(Path file) {
    String s = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return isGzName(s) ? s.substring(0, s.length() - 3) : s;
  }

  private static boolean isGzName(String name) {
    return name.toLowerCase(Locale.ROOT).endsWith(".gz");
  }

  /** A gzip stream that cannot be decompressed, located at a byte of the compressed file. */
  public static final class InvalidGzip extends IOException {
    private static final long serialVersionUID = 1L;
    private final String detail;

    InvalidGzip(String file, long offset, String why) {
      super(file + ": " + detail(offset, why));
      this.detail = detail(offset, why);
    }

    private static String detail(long offset, String why) {
      return "not a valid gzip stream at byte " + offset + " (" + why + ")";
    }

    /** The message without the file name. */
    public String detail() {
      return detail;
    }
  }

  /**
   * Reads the gzip header on first use, so that every problem, the header's included, comes out of
   * {@code read} (where {@link LineReader} gives it a line), and turns the JDK's ZipException and
   * EOFException into an {@link InvalidGzip} at the inflater's position.
   */
  private static final class LazyGzip extends InputStream {
    private final Counting compressed;
    private final String file;
    private final byte[] one = new byte[1];
    private Inflating gzip;

    LazyGzip(InputStream in, String file) {
      this.compressed = new Counting(in);
      this.file = file;
    }

    @Override
    public int read() throws IOException {
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        if (gzip == null) {
          gzip = new Inflating(compressed);
        }
        return gzip.read(b, off, len);
      } catch (InvalidGzip e) {
        throw e;
      } catch (IOException e) {
        long at = gzip == null ? 0 : gzip.position(); // the header starts at byte 0
        throw new InvalidGzip(file, at, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
      }
    }

    @Override
    public void close() throws IOException {
      if (gzip != null) {
        gzip.close();
      } else {
        compressed.close();
      }
    }
  }

  /** GZIPInputStream, whose position in the compressed input is what it read less what it holds. */
  private static final class Inflating extends GZIPInputStream {
    private final Counting in;

    Inflating(Counting in) throws IOException {
      super(in, BUFFER);
      this.in = in;
    }

    long position() {
      return in.count - inf.getRemaining();
    }
  }

  private static final class Counting extends FilterInputStream {
    long count;

    Counting(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long s = super.skip(n);
      count += s;
      return s;
    }
  }
}
