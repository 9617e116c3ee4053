package batchsim.core.world;

import batchsim.core.model.Durations;

/**
 * A timeline action could not be applied when its time came (see {@link batchsim.core.model.ActionRefused}).
 * The message names the event's location and the virtual time: {@code file:line:col: events[2]: at 10m: ...}.
 */
public final class TimelineError extends RuntimeException {
  TimelineError(String source, long atMs, String message) {
    super((source == null ? "timeline" : source) + ": at " + Durations.format(atMs) + ": " + message);
  }
}
