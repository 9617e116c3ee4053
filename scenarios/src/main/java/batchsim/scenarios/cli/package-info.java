/**
 * The {@code batchsim} command line (picocli). Commands are thin: they load a scenario, call the engine
 * and the report writers, and map failures to exit codes: 0 ok, 1 internal failure, 2 invalid input
 * (scenario problems, missing files, bad options). Commands print through the picocli {@code CommandLine}'s
 * writers, never {@code System.out}, so tests can capture them.
 */
package batchsim.scenarios.cli;
