/**
 * The Volcano conformance runner: replays case files in the format of volcano-cases.yaml (Volcano's own unit
 * test expectations, transcribed) through {@link batchsim.core.volcano.VolcanoEngine} and prints one line per
 * case or variant plus a summary, like the Kueue runner. Entry point:
 * {@link batchsim.scenarios.conformance.volcano.VolcanoConformance#run(java.nio.file.Path, java.io.PrintWriter)}.
 */
package batchsim.scenarios.conformance.volcano;
