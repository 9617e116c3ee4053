package batchsim.reports;

/** HTML escaping for text and attribute values (names come from user scenarios). */
final class Html {
  private Html() {}

  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String rep = switch (c) {
        case '&' -> "&amp;";
        case '<' -> "&lt;";
        case '>' -> "&gt;";
        case '"' -> "&quot;";
        case '\'' -> "&#39;";
        default -> null;
      };
      if (rep != null && sb == null) {
        sb = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      if (sb != null) {
        if (rep != null) {
          sb.append(rep);
        } else {
          sb.append(c);
        }
      }
    }
    return sb == null ? s : sb.toString();
  }

  /** Escaped text, or a dash for null or empty values. */
  static String orDash(String s) {
    return s == null || s.isEmpty() ? "-" : esc(s);
  }
}
