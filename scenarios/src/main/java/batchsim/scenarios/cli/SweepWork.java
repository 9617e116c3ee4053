package batchsim.scenarios.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The working directory of one sweep, beside its {@code --out}: it outlives a killed sweep so that the next
 * one with the same {@code --out} resumes it (cells whose done-marker matches are kept), holds the name of
 * the scenario being swept (another scenario there is refused) and a lock (one sweep at a time), and becomes
 * the output directory, whole, only when the sweep is complete.
 */
final class SweepWork implements AutoCloseable {
  /** The file naming the scenario, locked while a sweep works here. */
  static final String OWNER = ".batchsim-sweep";

  private final OutputDirectory out;
  private final Path dir;
  private final FileChannel channel;
  private FileLock lock;

  private SweepWork(OutputDirectory out, Path dir, FileChannel channel, FileLock lock) {
    this.out = out;
    this.dir = dir;
    this.channel = channel;
    this.lock = lock;
  }

  /** Takes the working directory of {@code out} for a sweep of {@code scenario}, resuming what is there. */
  static SweepWork claim(OutputDirectory out, String scenario) throws ScenarioCommand.UserError {
    Path dir = out.resumable();
    FileChannel ch = null;
    try {
      ch = FileChannel.open(dir.resolve(OWNER), StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
      FileLock lock = ch.tryLock();
      if (lock == null) {
        throw new ScenarioCommand.UserError("another batchsim sweep is writing " + out.path()
            + "; wait for it or choose another --out");
      }
      String owner = read(ch);
      if (owner.isEmpty()) {
        ch.write(ByteBuffer.wrap(scenario.getBytes(StandardCharsets.UTF_8)), 0);
        ch.force(false);
      } else if (!owner.equals(scenario)) {
        throw new ScenarioCommand.UserError("--out " + out.path() + " holds an unfinished sweep of scenario '"
            + owner + "' (in " + dir + "); finish it by running that sweep again, remove " + dir
            + ", or choose another --out");
      }
      SweepWork w = new SweepWork(out, dir, ch, lock);
      ch = null;
      return w;
    } catch (IOException e) {
      throw out.failed(e);
    } finally {
      if (ch != null) {
        try {
          ch.close();
        } catch (IOException e) {
          // the refusal above is what matters
        }
      }
    }
  }

  private static String read(FileChannel ch) throws IOException {
    ByteBuffer b = ByteBuffer.allocate((int) Math.min(ch.size(), 4096));
    ch.read(b, 0);
    return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).strip();
  }

  Path dir() {
    return dir;
  }

  /** Moves the complete sweep into place as the output directory. */
  void publish() throws IOException {
    close();
    Files.delete(dir.resolve(OWNER));
    out.publish(dir);
  }

  @Override
  public void close() throws IOException {
    if (lock != null) {
      lock.release();
      lock = null;
    }
    channel.close();
  }
}
