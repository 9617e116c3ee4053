package batchsim.workloads.trace;

/** What to do with a malformed line: stop with its location, or skip it and remember it. */
public enum OnError {
  FAIL,
  SKIP
}
