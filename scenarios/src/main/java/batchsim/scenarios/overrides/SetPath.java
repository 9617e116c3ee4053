package batchsim.scenarios.overrides;

import java.util.ArrayList;
import java.util.List;

/**
 * A path into the scenario tree as written after {@code --set} and as a matrix key: map keys separated
 * by dots, list items addressed by their {@code name} (or index), and keys that contain dots either
 * written as they are (matched against the keys present) or in brackets, as problem paths print them:
 * {@code cluster.nodePools.gpu.allocatable[nvidia.com/gpu]}.
 *
 * @param text the path as written
 * @param segments the parts; a bracketed part is never joined with its neighbours
 */
public record SetPath(String text, List<Segment> segments) {
  /** One part of a path; {@code exact} when it was written in brackets. */
  public record Segment(String text, boolean exact) {}

  public SetPath {
    segments = List.copyOf(segments);
  }

  /** Parses {@code text}; throws IllegalArgumentException saying what is wrong. */
  public static SetPath parse(String text) {
    List<Segment> out = new ArrayList<>();
    int i = 0;
    int n = text.length();
    if (n == 0) {
      throw new IllegalArgumentException("empty path");
    }
    while (i < n) {
      if (text.charAt(i) == '[') {
        int close = text.indexOf(']', i + 1);
        if (close < 0) {
          throw new IllegalArgumentException("unclosed '[' at character " + (i + 1));
        }
        if (close == i + 1) {
          throw new IllegalArgumentException("empty [] at character " + (i + 1));
        }
        out.add(new Segment(text.substring(i + 1, close), true));
        i = close + 1;
        if (i < n && text.charAt(i) == '.') {
          i++;
          if (i == n) {
            throw new IllegalArgumentException("path ends with '.'");
          }
        } else if (i < n && text.charAt(i) != '[') {
          throw new IllegalArgumentException("expected '.' or '[' after ']' at character " + (i + 1));
        }
        continue;
      }
      int end = i;
      while (end < n && text.charAt(end) != '.' && text.charAt(end) != '[') {
        end++;
      }
      if (end == i) {
        throw new IllegalArgumentException("empty part at character " + (i + 1));
      }
      out.add(new Segment(text.substring(i, end), false));
      i = end;
      if (i < n && text.charAt(i) == '.') {
        i++;
        if (i == n) {
          throw new IllegalArgumentException("path ends with '.'");
        }
      }
    }
    return new SetPath(text, out);
  }

  @Override
  public String toString() {
    return text;
  }
}
