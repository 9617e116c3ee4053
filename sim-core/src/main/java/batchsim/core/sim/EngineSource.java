package batchsim.core.sim;

/**
 * The upstream source an admission engine is ported from, as results name it (provenance).
 *
 * @param name the engine as scenarios select it ({@code scheduler:})
 * @param project the upstream repository
 * @param commit the commit the port follows
 * @param version the upstream version at that commit
 */
public record EngineSource(String name, String project, String commit, String version) {
  /** Kueue's scheduler at the commit the whole project is pinned to (README). */
  public static final EngineSource KUEUE = new EngineSource("kueue", "kubernetes-sigs/kueue", "ff69552e",
      "v0.20.0-devel");
  /** Volcano's scheduler at the commit its conformance cases were transcribed from (volcano-cases.yaml). */
  public static final EngineSource VOLCANO = new EngineSource("volcano", "volcano-sh/volcano", "ed72c7c8",
      "v1.16.0-alpha.1-42");

  /** {@code Kueue ff69552e (v0.20.0-devel)}. */
  public String describe() {
    String n = name == null || name.isEmpty() ? "?" : Character.toUpperCase(name.charAt(0)) + name.substring(1);
    return n + " " + commit + " (" + version + ")";
  }
}
