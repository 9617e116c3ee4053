package batchsim.scenarios.cli;

/**
 * The wall clock, read only for progress and timing lines on stderr (never for anything written to an output
 * file); an interface so that tests drive progress with a fake clock.
 */
@FunctionalInterface
interface WallClock {
  WallClock SYSTEM = System::nanoTime;

  /** Nanoseconds from an arbitrary origin, as {@link System#nanoTime()}. */
  long nanos();
}
