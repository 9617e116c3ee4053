package batchsim.scenarios;

import batchsim.core.model.SimulationSpec;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Loads scenario files: YAML → located tree → {@link Spec} → cross-checks → {@link SimulationSpec}.
 * Every problem in the file is collected before anything is thrown, so one run of {@code batchsim validate}
 * shows them all, each as {@code file:line:col: path: message}.
 */
public final class ScenarioLoader {
  private ScenarioLoader() {}

  /**
   * Loads and validates {@code file}; problem locations name the file as given.
   *
   * @throws IOException when the file cannot be read
   * @throws ScenarioException with every problem found, sorted by position
   */
  public static LoadedScenario load(Path file) throws IOException, ScenarioException {
    return parse(file.toString(), Files.readAllBytes(file));
  }

  /** Loads a scenario from memory; {@code fileName} is used in problem locations. */
  public static LoadedScenario parse(String fileName, String yaml) throws ScenarioException {
    return parse(fileName, yaml.getBytes(StandardCharsets.UTF_8));
  }

  /** Loads a scenario from the bytes of a file named {@code fileName}. */
  public static LoadedScenario parse(String fileName, byte[] bytes) throws ScenarioException {
    Problems problems = new Problems();
    String text = decode(fileName, bytes, problems);
    Node root = text == null ? null : YamlTreeReader.read(fileName, text, problems);
    if (root == null) {
      problems.throwIfAny();
      throw new IllegalStateException("YAML reader returned no document and no problem");
    }
    Spec.Scenario scenario = ScenarioBinder.bind(root, problems);
    ScenarioValidator.validate(scenario, problems);
    problems.throwIfAny();
    return new LoadedScenario(fileName, sha256(bytes), ModelBuilder.build(scenario));
  }

  private static String decode(String fileName, byte[] bytes, Problems problems) {
    try {
      String text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
      return text.startsWith("\uFEFF") ? text.substring(1) : text;
    } catch (CharacterCodingException e) {
      problems.report(new Location(fileName, 1, 1), "", "the file is not valid UTF-8");
      return null;
    }
  }

  /** Lowercase hex SHA-256 of {@code bytes}. */
  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
