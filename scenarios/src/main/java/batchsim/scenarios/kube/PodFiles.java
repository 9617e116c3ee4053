package batchsim.scenarios.kube;

import batchsim.reports.Provenance;
import batchsim.scenarios.RegularFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where a sweep's files sit in its pods. The pod mirrors the machine the sweep was emitted on below {@link #ROOT}:
 * take R, the deepest directory holding the working directory, the scenario, its includes and every file it reads;
 * a file at R/p is at {@code ROOT/p} in the pod, and the pod works in {@code ROOT/<working directory below R>}.
 * So the scenario, named as it was named here, finds its includes and traces by the same relative paths, and the
 * cells record the same paths as a local sweep's. The scenario and its includes come from a ConfigMap, the other
 * files from the data claim at R/p; each is mounted as one file ({@code subPath}), so mounts never nest.
 *
 * @param scenario the scenario's path in the pod's working directory (as named here when relative)
 * @param workingDir the pod's working directory
 * @param config the ConfigMap's files, in the order the scenario read them
 * @param data the other files, in the order first read
 * @param localRoot R on this machine
 */
public record PodFiles(String scenario, String workingDir, List<ConfigFile> config, List<DataFile> data,
    Path localRoot) {
  /** Where R is in the pod. */
  public static final String ROOT = "/batchsim/work";

  /**
   * A file from the ConfigMap.
   *
   * @param key its key in the ConfigMap ({@code [-._a-zA-Z0-9]+})
   * @param path its path below R
   */
  public record ConfigFile(String key, String path, String text) {
    public String mountPath() {
      return ROOT + "/" + path;
    }
  }

  /**
   * A file from the data claim, where it is at {@link #path} (below R) as here.
   *
   * @param bytes its size here, to size the claim
   */
  public record DataFile(String path, long bytes) {
    public String mountPath() {
      return ROOT + "/" + path;
    }
  }

  /** A file the pods cannot be given. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    public Refused(String message) {
      super(message);
    }
  }

  /**
   * The layout for a scenario named {@code scenarioFile} (as given, relative to {@code cwd} or absolute) whose
   * composition read {@code composed} (the scenario and its includes, as read) and whose cells read {@code inputs}
   * (paths relative to the scenario's directory, or absolute, as provenance records them).
   */
  public static PodFiles of(Path cwd, Path scenarioFile, List<Provenance.Input> composed,
      List<Provenance.Input> inputs) throws Refused, IOException {
    Path here = cwd.toAbsolutePath().normalize();
    Path scenarioDir = here.resolve(scenarioFile).normalize().getParent();
    Set<Path> configFiles = new LinkedHashSet<>();
    composed.forEach(f -> configFiles.add(here.resolve(f.path()).normalize()));
    Set<Path> dataFiles = new LinkedHashSet<>();
    for (Provenance.Input in : inputs) {
      if (Path.of(in.path()).isAbsolute()) {
        throw new Refused("the scenario names " + in.path() + " by an absolute path; name it relative to the "
            + "scenario so that the pods find it on the data claim");
      }
      Path abs = scenarioDir.resolve(in.path()).normalize();
      if (!configFiles.contains(abs)) {
        dataFiles.add(abs);
      }
    }
    Path root = here;
    for (Path p : concat(configFiles, dataFiles)) {
      while (!p.startsWith(root)) {
        root = root.getParent();
      }
    }
    List<ConfigFile> config = new ArrayList<>();
    for (Path p : configFiles) {
      String name = p.getFileName().toString().replaceAll("[^-._a-zA-Z0-9]", "_");
      config.add(new ConfigFile(config.size() + "-" + name, below(root, p),
          new String(RegularFiles.readAllBytes(p), StandardCharsets.UTF_8)));
    }
    List<DataFile> data = new ArrayList<>();
    for (Path p : dataFiles) {
      data.add(new DataFile(below(root, p), Files.size(p)));
    }
    String rel = below(root, here);
    String scenario = scenarioFile.isAbsolute() ? below(here, here.resolve(scenarioFile).normalize())
        : scenarioFile.toString();
    return new PodFiles(scenario.replace(java.io.File.separatorChar, '/'), rel.isEmpty() ? ROOT : ROOT + "/" + rel,
        config, data, root);
  }

  private static List<Path> concat(Set<Path> a, Set<Path> b) {
    List<Path> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /** {@code p} below {@code root}, '/'-separated ("" for root itself). */
  private static String below(Path root, Path p) {
    return root.relativize(p).toString().replace(java.io.File.separatorChar, '/');
  }
}
