package batchsim.scenarios.yaml;

/**
 * A scalar with its original text. {@code type} is YAML's implicit resolution of a plain scalar (quoted
 * scalars are always strings); consumers that need a quantity or duration parse {@code text} themselves.
 */
public record ScalarNode(Location location, String path, String text, Type type) implements Node {
  /** How YAML resolved the scalar. */
  public enum Type { STRING, INT, FLOAT, BOOL, NULL }

  @Override
  public String describe() {
    return type == Type.NULL ? "null" : "'" + Excerpt.of(text) + "'";
  }

  @Override
  public ScalarNode withPath(String newPath) {
    return new ScalarNode(location, newPath, text, type);
  }
}
