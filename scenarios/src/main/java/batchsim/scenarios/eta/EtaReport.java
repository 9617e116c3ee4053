package batchsim.scenarios.eta;

import batchsim.core.model.Durations;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code batchsim eta}'s answer as text for people and as JSON for tools (schema in the README). */
public final class EtaReport {
  /** Reasons, releases and victims shown per workload in the text. */
  private static final int SHOWN = 3;

  private EtaReport() {}

  /** The text answer. */
  public static String text(Eta.Answer a) {
    StringBuilder b = new StringBuilder();
    Instant t0 = a.loaded().scenario().snapshotTime();
    b.append("snapshot: ").append(a.loaded().source()).append(t0 == null ? " (no snapshotTime: durations only)"
        : "; t = 0 is " + t0).append('\n');
    b.append(a.replicas()).append(" replicas, seeds ").append(a.firstSeed()).append("..")
        .append(a.firstSeed() + a.replicas() - 1).append(" (runtimes drawn per seed); ").append(arrivals(a))
        .append('\n');
    a.loaded().notes().forEach(n -> b.append(n).append('\n'));
    for (Eta.Job j : a.jobs()) {
      b.append('\n').append(j.asked().what()).append(j.clusterQueue() == null ? "" : " in ClusterQueue "
          + j.clusterQueue()).append('\n');
      b.append(String.format("  %-15s %-22s %-22s %-22s%n", "", "p10", "p50", "p90"));
      row(b, "quota reserved", j.reserved(), t0, a.replicas());
      row(b, "admitted", j.admitted(), t0, a.replicas());
      row(b, "started", j.started(), t0, a.replicas());
      if (j.pendingAtSnapshot().isEmpty()) {
        b.append("  at t = 0: gets quota at once\n");
      } else {
        j.pendingAtSnapshot().stream().limit(SHOWN).forEach(c -> b.append("  at t = 0: ").append(c.what())
            .append(of(c, a)).append('\n'));
      }
      List<Eta.Count> last = j.lastPending().stream().filter(c -> j.pendingAtSnapshot().stream()
          .noneMatch(p -> p.what().equals(c.what()))).limit(SHOWN).toList();
      last.forEach(c -> b.append("  last waited: ").append(c.what()).append(of(c, a)).append('\n'));
      j.releasedBy().stream().limit(SHOWN).forEach(c -> b.append("  got in after ").append(c.what())
          .append(" finished").append(of(c, a)).append('\n'));
      if (j.releasedBy().size() > SHOWN) {
        b.append("  ... and after ").append(j.releasedBy().size() - SHOWN).append(" other finishes\n");
      }
      if (j.preempts().isEmpty()) {
        b.append("  preempts: nothing\n");
      } else {
        j.preempts().stream().limit(SHOWN).forEach(c -> b.append("  preempts ").append(c.what()).append(of(c, a))
            .append('\n'));
      }
      if (j.asked().runtimeSource() != null) {
        b.append("  its own runtime: ").append(j.asked().runtimeSource()).append('\n');
      }
    }
    return b.toString();
  }

  private static String arrivals(Eta.Answer a) {
    return !a.loaded().arrivals() ? "no arrivals after the snapshot: its workloads and the ones asked about (jobs "
        + "created at t = 0, in argument order) only" : "arrivals as the scenario has them";
  }

  private static String of(Eta.Count c, Eta.Answer a) {
    return " (" + c.replicas() + " of " + a.replicas() + " replicas)";
  }

  private static void row(StringBuilder b, String what, Eta.Times t, Instant t0, int replicas) {
    b.append(String.format("  %-15s %-22s %-22s %-22s", what, cell(t.p10(), t0), cell(t.p50(), t0),
        cell(t.p90(), t0)));
    if (t.never() > 0) {
      b.append(" not within the run in ").append(t.never()).append(" of ").append(replicas);
    }
    b.append('\n');
  }

  private static String cell(long ms, Instant t0) {
    if (ms == Eta.Times.NEVER) {
      return "never";
    }
    long s = Math.round(ms / 1000.0);
    String d = "+" + Durations.format(s * 1000);
    return t0 == null ? d : d + " (" + clock(s, t0) + ")";
  }

  /** {@code 10:45:28Z}, with the date when it is not t = 0's. */
  private static String clock(long seconds, Instant t0) {
    String at = t0.plusSeconds(seconds).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    return at.substring(0, 10).equals(t0.toString().substring(0, 10)) ? at.substring(11) : at.replace('T', ' ');
  }

  /** The JSON answer (schema: README, "When will my job start?"). */
  public static String json(Eta.Answer a) {
    Instant t0 = a.loaded().scenario().snapshotTime();
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("schema", "batchsim.eta/v1");
    root.put("snapshot", a.loaded().source());
    root.put("snapshotTime", t0 == null ? null : t0.toString());
    root.put("replicas", a.replicas());
    root.put("firstSeed", a.firstSeed());
    root.put("arrivals", a.loaded().arrivals() ? "scenario" : "none");
    root.put("notes", a.loaded().notes());
    List<Object> jobs = new ArrayList<>();
    for (Eta.Job j : a.jobs()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("workload", j.asked().id());
      m.put("asked", j.asked().what());
      m.put("clusterQueue", j.clusterQueue());
      m.put("runtimeSource", j.asked().runtimeSource());
      m.put("quotaReserved", times(j.reserved(), t0));
      m.put("admitted", times(j.admitted(), t0));
      m.put("started", times(j.started(), t0));
      m.put("pendingAtSnapshot", counts(j.pendingAtSnapshot()));
      m.put("lastPending", counts(j.lastPending()));
      m.put("releasedBy", counts(j.releasedBy()));
      m.put("preempts", counts(j.preempts()));
      List<Object> per = new ArrayList<>();
      for (Eta.ReplicaTimes r : j.replicas()) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("seed", r.seed());
        x.put("quotaReservedSeconds", seconds(r.reservedMs()));
        x.put("admittedSeconds", seconds(r.admittedMs()));
        x.put("startedSeconds", seconds(r.startedMs()));
        per.add(x);
      }
      m.put("perReplica", per);
      jobs.add(m);
    }
    root.put("workloads", jobs);
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, Object> times(Eta.Times t, Instant t0) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (var e : Map.of("p10", t.p10(), "p50", t.p50(), "p90", t.p90()).entrySet().stream()
        .sorted(Map.Entry.comparingByKey()).toList()) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("seconds", seconds(e.getValue()));
      p.put("time", e.getValue() == Eta.Times.NEVER || t0 == null ? null : t0.plusMillis(e.getValue()).toString());
      m.put(e.getKey(), p);
    }
    m.put("neverReplicas", t.never());
    return m;
  }

  private static Double seconds(long ms) {
    return ms == Eta.Times.NEVER ? null : ms / 1000.0;
  }

  private static List<Object> counts(List<Eta.Count> cs) {
    List<Object> out = new ArrayList<>();
    for (Eta.Count c : cs) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("what", c.what());
      m.put("replicas", c.replicas());
      out.add(m);
    }
    return out;
  }
}
