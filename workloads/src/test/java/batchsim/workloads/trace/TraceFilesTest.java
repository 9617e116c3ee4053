package batchsim.workloads.trace;

import static batchsim.workloads.trace.TraceReadersTest.all;
import static batchsim.workloads.trace.TraceReadersTest.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceFilesTest {
  @Test
  void gzipTraces_readAsTheirPlainText() throws Exception {
    assertEquals(all(open(TraceFormat.SWF, "small.swf", OnError.FAIL)),
        all(open(TraceFormat.SWF, "small.swf.gz", OnError.FAIL)));
    assertEquals(all(open(TraceFormat.PHILLY, "philly-small.csv", OnError.FAIL)),
        all(open(TraceFormat.PHILLY, "philly-small.csv.gz", OnError.FAIL)));
  }

  @Test
  void gzip_isToldByItsMagicBytes_notItsName(@TempDir Path dir) throws Exception {
    Path renamed = dir.resolve("compressed.swf");
    Files.copy(TraceReadersTest.DIR.resolve("small.swf.gz"), renamed);
    assertEquals(all(open(TraceFormat.SWF, "small.swf", OnError.FAIL)),
        all(TraceFormat.SWF.open(renamed, "compressed.swf", OnError.FAIL, GpuOptions.DEFAULT)));
  }

  @Test
  void damagedGzip_failsAtTheFirstUnreadLine_withTheCompressedByte_evenWhenSkippingMalformedLines() throws Exception {
    LineReader<TraceJob> r = open(TraceFormat.SWF, "damaged.swf.gz", OnError.SKIP);
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> all(r));
    assertTrue(e.getMessage().matches("damaged\\.swf\\.gz:1:1: not a valid gzip stream at byte \\d+ \\(.+\\)"),
        e.getMessage());
  }

  @Test
  void truncatedGzip_isLocatedAtItsEnd() throws Exception {
    long size = Files.size(TraceReadersTest.DIR.resolve("truncated.swf.gz"));
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> all(open(TraceFormat.SWF, "truncated.swf.gz", OnError.FAIL)));
    assertTrue(e.detail().startsWith("not a valid gzip stream at byte " + size + " ("), e.getMessage());
  }

  @Test
  void aGzNameOnPlainText_isRefusedAtByteZero_notReadAsText() throws Exception {
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> all(open(TraceFormat.SWF, "plain-text.swf.gz", OnError.FAIL)));
    assertEquals("plain-text.swf.gz:1:1: not a valid gzip stream at byte 0 (Not in GZIP format)", e.getMessage());
  }

  @Test
  void cutAfterGoodLines_namesTheFirstLineNotRead(@TempDir Path dir) throws Exception {
    // 200,000 lines: more than one buffer, so the lines before the damage come out first.
    Path file = dir.resolve("long.swf.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      for (int i = 1; i <= 200_000; i++) {
        out.write((i + " " + i + " -1 60 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n").getBytes());
      }
    }
    byte[] bytes = Files.readAllBytes(file);
    int at = bytes.length * 3 / 4;
    Files.write(file, java.util.Arrays.copyOf(bytes, at)); // cut: damage gzip always detects
    LineReader<TraceJob> r = TraceFormat.SWF.open(file, "long.swf.gz", OnError.FAIL, GpuOptions.DEFAULT);
    long read = 0;
    try {
      while (r.next() != null) {
        read++;
      }
    } catch (TraceFormatException e) {
      assertEquals(read + 1, e.line(), "the first line not read");
      assertTrue(read > 10_000, "lines before the damage were read: " + read);
      assertTrue(e.detail().startsWith("not a valid gzip stream at byte " + at + " ("), e.getMessage());
      return;
    } finally {
      r.close();
    }
    throw new AssertionError("read " + read + " lines of a damaged file without a complaint");
  }

  @Test
  void plainReaders_seeTheInvalidGzipAsAnIOException_namingTheFile() throws IOException {
    try (BufferedReader r = TraceFiles.open(TraceReadersTest.DIR.resolve("damaged.swf.gz"), "d.swf.gz")) {
      IOException e = assertThrows(IOException.class, r::readLine);
      assertTrue(e.getMessage().startsWith("d.swf.gz: not a valid gzip stream at byte "), e.getMessage());
    }
  }

  @Test
  void baseAndKindNames_dropGz() {
    assertEquals("KTH-SP2-1996-2.1-cln", TraceFiles.baseName(Path.of("x/KTH-SP2-1996-2.1-cln.swf.gz")));
    assertEquals("KTH-SP2-1996-2.1-cln", TraceFiles.baseName(Path.of("KTH-SP2-1996-2.1-cln.swf")));
    assertEquals("log.swf", TraceFiles.kindName(Path.of("LOG.SWF.GZ")));
    assertEquals("a.csv", TraceFiles.kindName(Path.of("a.csv")));
  }
}
