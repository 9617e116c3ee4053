package batchsim.scenarios.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random damage to a scenario tree: a key deleted, a value of another type, a list item or a line
 * duplicated, deep nesting, odd names, huge and negative numbers, empty strings, unknown keys, nulls.
 * Each mutation says what it did, so a failure can be read without diffing.
 */
final class Mutations {
  /** A mutated scenario: its text, what was done, and whether it may ask for unbounded work. */
  record Mutant(String yaml, List<String> done, boolean huge) {}

  private static final String[] ODD = {"", " ", "a/b", "ünïcödé", "名前", "x".repeat(300), "-1", "null", "~",
      "a: b", "../../etc/passwd", "\t", "$(rm -rf /)", "0x10", "1_000", ".inf", "true", "[", "#", "*", "&a",
      "-", "\u00a0", "a\"b", "NaN", "500m", "1Ei", "1.5"};
  /** Values that may ask for unbounded work: huge counts, rates and horizons, or tiny gaps between arrivals. */
  private static final String[] HUGE = {"1e9", "2147483648", "9223372036854775808", "99999999999999999999999",
      "1e308", "1e400", "100000000", "1000000000d", "1e9/s", "999999Ti", "2000000h", "1e-9", "0s", "1ms",
      "1/ms"};
  private static final String[] NEGATIVE = {"-1", "-0", "-5m", "-1h", "-2147483649", "-1e9", "-0.5"};

  private Mutations() {}

  static Mutant mutate(Map<String, Object> scenario, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Object root = copy(scenario);
    List<String> done = new ArrayList<>();
    boolean huge = false;
    boolean duplicateLine = false;
    for (int i = 0, n = r.nextInt(1, 4); i < n; i++) {
      List<Site> sites = new ArrayList<>();
      collect(root, "", sites);
      Site site = sites.get(r.nextInt(sites.size()));
      int kind = r.nextInt(11);
      switch (kind) {
        case 0 -> {
          site.remove();
          done.add("delete " + site.path);
        }
        case 1 -> {
          Object v = site.get();
          Object other = v instanceof Map<?, ?> ? "x" : v instanceof List<?> ? map("a", "1")
              : r.nextBoolean() ? new ArrayList<>(List.of(v == null ? "x" : v)) : map("k", v == null ? "x" : v);
          site.set(other);
          done.add("retype " + site.path);
        }
        case 2 -> {
          if (site.parent instanceof List<?> l) {
            @SuppressWarnings("unchecked")
            List<Object> items = (List<Object>) l;
            items.add(site.index + 1, copy(site.get()));
            done.add("duplicate item " + site.path);
          } else {
            duplicateLine = true;
            done.add("duplicate a line");
          }
        }
        case 3 -> {
          int depth = pick(r, 5, 60, 150);
          Object v = site.get();
          for (int d = 0; d < depth; d++) {
            v = new ArrayList<>(List.of(v == null ? "x" : v));
          }
          site.set(v);
          done.add("nest " + depth + " deep at " + site.path);
        }
        case 4 -> {
          String odd = ODD[r.nextInt(ODD.length)];
          site.set(odd);
          done.add("odd value '" + odd + "' at " + site.path);
        }
        case 5 -> {
          String h = HUGE[r.nextInt(HUGE.length)];
          site.set(h);
          huge = true;
          done.add("huge " + h + " at " + site.path);
        }
        case 6 -> {
          String neg = NEGATIVE[r.nextInt(NEGATIVE.length)];
          site.set(neg);
          done.add("negative " + neg + " at " + site.path);
        }
        case 7 -> {
          site.set("");
          done.add("empty string at " + site.path);
        }
        case 8 -> {
          if (site.get() instanceof Map<?, ?> m) {
            @SuppressWarnings("unchecked")
            Map<String, Object> mm = (Map<String, Object>) m;
            mm.put(pick(r, "bogus", "Name", "nme", "<<", "count "), "1");
            done.add("unknown key in " + site.path);
          } else {
            site.set(map("bogus", "1"));
            done.add("map with unknown key at " + site.path);
          }
        }
        case 9 -> {
          site.set(null);
          done.add("null at " + site.path);
        }
        default -> {
          if (site.parent instanceof Map<?, ?> m && site.key != null) {
            @SuppressWarnings("unchecked")
            Map<String, Object> mm = (Map<String, Object>) m;
            Object v = mm.remove(site.key);
            String odd = ODD[r.nextInt(ODD.length)];
            mm.put(odd, v);
            done.add("key renamed to '" + odd + "' at " + site.path);
          } else {
            site.set(ODD[r.nextInt(ODD.length)]);
            done.add("odd item at " + site.path);
          }
        }
      }
    }
    String yaml = root == null ? "" : YamlText.of(root);
    if (duplicateLine) {
      List<String> lines = new ArrayList<>(yaml.lines().toList());
      int at = r.nextInt(lines.size());
      lines.add(at, lines.get(at));
      yaml = String.join("\n", lines) + "\n";
    }
    return new Mutant(yaml, done, huge);
  }

  /** A place in the tree: a map entry or a list item, with the container that holds it. */
  private static final class Site {
    final Object parent;
    final String key;
    final int index;
    final String path;

    Site(Object parent, String key, int index, String path) {
      this.parent = parent;
      this.key = key;
      this.index = index;
      this.path = path;
    }

    @SuppressWarnings("unchecked")
    Object get() {
      return parent instanceof Map<?, ?> m ? m.get(key) : ((List<Object>) parent).get(index);
    }

    @SuppressWarnings("unchecked")
    void set(Object v) {
      if (parent instanceof Map<?, ?> m) {
        ((Map<String, Object>) m).put(key, v);
      } else {
        ((List<Object>) parent).set(index, v);
      }
    }

    @SuppressWarnings("unchecked")
    void remove() {
      if (parent instanceof Map<?, ?> m) {
        m.remove(key);
      } else {
        ((List<Object>) parent).remove(index);
      }
    }
  }

  private static void collect(Object node, String path, List<Site> out) {
    if (node instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        String p = path + "." + e.getKey();
        out.add(new Site(m, (String) e.getKey(), -1, p));
        collect(e.getValue(), p, out);
      }
    } else if (node instanceof List<?> l) {
      for (int i = 0; i < l.size(); i++) {
        String p = path + "[" + i + "]";
        out.add(new Site(l, null, i, p));
        collect(l.get(i), p, out);
      }
    }
  }

  /** A deep, mutable copy. */
  static Object copy(Object node) {
    if (node instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put((String) k, copy(v)));
      return out;
    }
    if (node instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(v -> out.add(copy(v)));
      return out;
    }
    return node;
  }

  private static Map<String, Object> map(String k, Object v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(k, v);
    return m;
  }

  private static int pick(SplittableRandom r, int... options) {
    return options[r.nextInt(options.length)];
  }

  private static String pick(SplittableRandom r, String... options) {
    return options[r.nextInt(options.length)];
  }
}
