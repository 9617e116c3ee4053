package batchsim.scenarios;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Reads input files whole, and only regular ones: a device ({@code /dev/zero}), a FIFO or a directory is
 * refused before it is opened, since reading it would never end, block, or fail obscurely. Files larger
 * than the YAML reader accepts are refused before they are read into memory.
 */
public final class RegularFiles {
  /** Largest file read whole: the YAML reader's own limit on a document. */
  public static final long MAX_BYTES = 256L * 1024 * 1024;

  private RegularFiles() {}

  /** Thrown for a path that is not a regular file or too large to read; the message says which. */
  public static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /** The bytes of {@code file}, after checking that it is a regular file of bounded size. */
  public static byte[] readAllBytes(Path file) throws IOException {
    check(file);
    return Files.readAllBytes(file);
  }

  /** {@link #readAllBytes} as UTF-8 text. */
  public static String readString(Path file) throws IOException {
    check(file);
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  /** Throws {@link Refused} unless {@code file} (symbolic links followed) is a regular file of bounded size. */
  public static void check(Path file) throws IOException {
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    if (a.isDirectory()) {
      throw new Refused("is a directory, not a file");
    }
    if (!a.isRegularFile()) {
      throw new Refused("is a device, FIFO or socket, not a regular file; batchsim reads only regular files");
    }
    if (a.size() > MAX_BYTES) {
      throw new Refused("is " + a.size() + " bytes, more than the " + MAX_BYTES / (1024 * 1024)
          + " MB an input file may hold");
    }
  }

  /** Deletes {@code p} and everything under it; nothing when it does not exist. */
  public static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (java.util.stream.Stream<Path> s = Files.walk(p)) {
      for (Path q : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(q);
      }
    }
  }

  /** A SHA-256 digest (every JVM has one). */
  public static MessageDigest sha256Digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** Lowercase hex SHA-256 of {@code bytes}. */
  public static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(sha256Digest().digest(bytes));
  }

  /** Lowercase hex SHA-256 of the file's bytes, read as a stream (traces may be large). */
  public static String sha256(Path file) throws IOException {
    MessageDigest md = sha256Digest();
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
      in.transferTo(OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
