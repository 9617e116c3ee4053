package batchsim.scenarios.conformance;

import batchsim.scenarios.yaml.Node;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiPredicate;

/**
 * The keys a part of a case file may hold: a tree of mappings with known keys, lists and mappings of
 * anything keyed by names or ids, and {@link #ANY} for what is free (prose, labels, resource maps). It says
 * nothing about values beyond the keys: the runners check values and report their problems per case.
 */
public final class Shape {
  enum Kind { ANY, OBJECT, LIST, MAP, PATCH }

  /** Anything: prose, labels, resource or id maps. */
  public static final Shape ANY = new Shape(Kind.ANY, null);

  final Kind kind;
  /** LIST: the item; MAP: the value; PATCH: the patched shape. */
  final Shape inner;
  /** OBJECT: the known keys, in declaration order. */
  final Map<String, Shape> keys = new LinkedHashMap<>();
  /** OBJECT: which other keys are allowed, by key and value, and what they are. */
  BiPredicate<String, Node> otherKey;
  String otherWhat;

  private Shape(Kind kind, Shape inner) {
    this.kind = kind;
    this.inner = inner;
  }

  /**
   * A mapping with the given keys, each of which may hold anything; add structured keys with {@link #with}.
   * A list given here is a list of such mappings (one or many, as Kueue's {@code kueue_test}).
   */
  public static Shape object(String... anyKeys) {
    Shape s = new Shape(Kind.OBJECT, null);
    for (String k : anyKeys) {
      s.keys.put(k, ANY);
    }
    return s;
  }

  /** A list of {@code item}s. */
  public static Shape listOf(Shape item) {
    return new Shape(Kind.LIST, item);
  }

  /** A mapping from free keys (names, ids) to {@code value}s. */
  public static Shape mapOf(Shape value) {
    return new Shape(Kind.MAP, value);
  }

  /**
   * Kueue's variant {@code change}: {@code shape} merged into the base, where a list of named objects may be
   * patched through a mapping keyed by name or id, or replaced whole by {@code {replace_with: [...]}}.
   */
  public static Shape patchOf(Shape shape) {
    return new Shape(Kind.PATCH, shape);
  }

  /** Adds a key of the given shape; returns this. */
  public Shape with(String key, Shape shape) {
    keys.put(key, shape);
    return this;
  }

  /**
   * Also allows keys outside the known ones when {@code accept} holds for the key and its value; {@code what}
   * names them in messages ("a resource with a scalar amount"). Returns this.
   */
  public Shape orKeys(BiPredicate<String, Node> accept, String what) {
    this.otherKey = accept;
    this.otherWhat = what;
    return this;
  }

  /** The known keys, sorted, for messages. */
  String known() {
    String list = String.join(", ", new TreeSet<>(keys.keySet()));
    return otherWhat == null ? list : list + "; or " + otherWhat;
  }
}
