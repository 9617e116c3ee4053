package batchsim.scenarios;

import batchsim.scenarios.imports.JobTemplateReader;
import batchsim.scenarios.imports.KubeObjects;
import batchsim.scenarios.imports.VolcanoJobReader;
import batchsim.scenarios.imports.Warnings;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A workload class's {@code manifest}: a Job, JobSet or Pod group file, or Volcano's Job or PodGroup with its
 * pods (or {@code {path, name}} to pick one of several) read as a template of queue, priority class and pod
 * sets. Its values keep their locations, so a problem in the manifest is reported at its line in the manifest's
 * file.
 */
final class ManifestTemplates {
  private ManifestTemplates() {}

  /** The template ({@code {queue, priorityClass, podSets}}), or null after reporting why there is none. */
  static MapNode load(Node manifest, Problems problems) {
    Node pathNode = manifest;
    ScalarNode pick = null;
    if (manifest instanceof MapNode) {
      Fields f = Fields.of(manifest, problems, "path", "name");
      pathNode = f.required("path");
      pick = f.optionalName("name");
    }
    Path file = InputFiles.existing(pathNode, problems);
    if (file == null) {
      return null;
    }
    List<JobTemplateReader.JobTemplate> templates;
    try {
      List<KubeObjects.KubeObject> objects = KubeObjects.read(file, file.toString(), problems);
      templates = new java.util.ArrayList<>(JobTemplateReader.read(objects.stream()
          .filter(o -> !VolcanoJobReader.handles(o)).toList(), problems, new Warnings()));
      templates.addAll(VolcanoJobReader.read(objects, problems, new Warnings())); // vcjobs, PodGroups
    } catch (IOException e) {
      problems.at(pathNode, "cannot read " + file + ": " + e.getMessage());
      return null;
    }
    String names = String.join(", ", templates.stream().map(JobTemplateReader.JobTemplate::name).toList());
    if (pick != null) {
      for (JobTemplateReader.JobTemplate t : templates) {
        if (t.name().equals(pick.text())) {
          return t.template();
        }
      }
      problems.at(pick, file + " has no Job, JobSet or pod group named '" + pick.text() + "'"
          + (templates.isEmpty() ? "" : " (it has " + names + ")"));
      return null;
    }
    if (templates.size() != 1) {
      problems.at(pathNode, file + (templates.isEmpty() ? " holds no Job, JobSet or Pod"
          : " holds " + templates.size() + " workloads (" + names + "); pick one with manifest: {path, name}"));
      return null;
    }
    return templates.get(0).template();
  }
}
