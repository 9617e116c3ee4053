package batchsim.scenarios.yaml;

/**
 * Input text as messages may quote it: one line, and short. A value can be a whole included file or a
 * megabyte of garbage; a message shows its start and says how long it is rather than echoing it.
 */
public final class Excerpt {
  /** Longest value quoted whole. */
  static final int MAX = 60;

  private Excerpt() {}

  /** {@code text} on one line (control characters escaped), cut to {@link #MAX} characters. */
  public static String of(String text) {
    return of(text, MAX);
  }

  /** {@code text} on one line, cut to {@code max} characters with a note of its full length. */
  public static String of(String text, int max) {
    boolean cut = text.length() > max;
    String head = cut ? text.substring(0, max) : text;
    StringBuilder sb = new StringBuilder(head.length() + 32);
    for (int i = 0; i < head.length(); i++) {
      char c = head.charAt(i);
      switch (c) {
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (Character.isISOControl(c)) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return cut ? sb + "… (" + text.length() + " characters)" : sb.toString();
  }
}
