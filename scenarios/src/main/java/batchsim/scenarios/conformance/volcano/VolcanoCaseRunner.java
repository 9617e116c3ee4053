package batchsim.scenarios.conformance.volcano;

import batchsim.core.volcano.HierarchyInvariant;
import batchsim.core.volcano.PluginSpec;
import batchsim.core.volcano.PodGroup;
import batchsim.core.volcano.SessionOutcome;
import batchsim.core.volcano.VolcanoConfig;
import batchsim.core.volcano.VolcanoEngine;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs one Volcano case: builds the engine, runs its sessions (a number of {@code cycles}, or a
 * {@code timeline} of sessions and object additions), compares every expectation the case states, and checks
 * after every session that the engine broke no hierarchical-capability or node invariant that held (or held
 * more loosely) before it.
 */
final class VolcanoCaseRunner {
  private VolcanoCaseRunner() {}

  static VolcanoCaseResult run(VolcanoCase c) {
    JsonNode spec = c.spec();
    if (spec.has("invalid")) {
      return VolcanoCaseResult.fail(c.id(), List.of("invalid case: " + spec.get("invalid").asText()));
    }
    try {
      List<String> diffs = replay(spec);
      return diffs.isEmpty() ? VolcanoCaseResult.pass(c.id()) : VolcanoCaseResult.fail(c.id(), diffs);
    } catch (UnsupportedCase e) {
      return e.malformed ? VolcanoCaseResult.fail(c.id(), List.of("invalid case: " + e.getMessage()))
          : VolcanoCaseResult.skip(c.id(), e.getMessage());
    } catch (IllegalArgumentException e) {
      return VolcanoCaseResult.fail(c.id(), List.of("invalid case: " + e.getMessage()));
    } catch (RuntimeException e) {
      return VolcanoCaseResult.fail(c.id(), List.of("engine error: " + e));
    }
  }

  private static List<String> replay(JsonNode spec) {
    CaseSetup setup = new CaseSetup(spec);
    List<PluginSpec> tier = setup.plugins();
    List<String> baseActions = setup.actions(spec.path("scheduler").path("actions"));
    VolcanoConfig config = new VolcanoConfig(baseActions.isEmpty() ? List.of("allocate") : baseActions,
        setup.configured(baseActions), List.of(tier), 1_000, 0);
    VolcanoEngine engine = setup.engine(config);
    boolean includes = "includes".equals(spec.path("binds_check").asText());
    List<String> diffs = new ArrayList<>();

    if (spec.has("timeline")) {
      replayTimeline(spec.get("timeline"), setup, engine, baseActions, includes, diffs);
      return diffs;
    }
    if (!spec.has("expect")) {
      throw UnsupportedCase.invalid("no expect");
    }
    int cycles = spec.path("cycles").asInt(1);
    List<SessionOutcome> outcomes = new ArrayList<>();
    for (int i = 0; i < cycles; i++) {
      outcomes.add(session(engine, baseActions, setup.configured(baseActions), diffs, ""));
    }
    compare(spec.get("expect"), engine, outcomes, includes, diffs, "");
    return diffs;
  }

  private static void replayTimeline(JsonNode timeline, CaseSetup setup, VolcanoEngine engine,
      List<String> baseActions, boolean includes, List<String> diffs) {
    int last = 0;
    Map<Integer, List<JsonNode>> before = new HashMap<>();
    Map<Integer, JsonNode> cycles = new HashMap<>();
    for (JsonNode step : timeline) {
      if (step.has("cycle")) {
        int n = step.get("cycle").asInt();
        cycles.put(n, step);
        last = Math.max(last, n);
      } else if (step.has("before_cycle")) {
        int n = step.get("before_cycle").asInt();
        before.computeIfAbsent(n, k -> new ArrayList<>()).add(step);
        last = Math.max(last, n);
      } else {
        throw UnsupportedCase.invalid("a timeline step needs 'cycle' or 'before_cycle'");
      }
    }
    for (int n = 1; n <= last; n++) {
      for (JsonNode add : before.getOrDefault(n, List.of())) {
        setup.addObjects(engine, add.path("add_podgroups"), add.path("add_pods"));
      }
      JsonNode step = cycles.get(n);
      List<String> actions = step != null && step.has("actions") ? setup.actions(step.get("actions")) : baseActions;
      Set<String> configured = step != null && step.has("configured_actions")
          ? Set.copyOf(setup.actions(step.get("configured_actions"))) : setup.configured(actions);
      String where = "cycle " + n + ": ";
      SessionOutcome o = session(engine, actions, configured, diffs, where);
      if (step != null && step.has("expect")) {
        compare(step.get("expect"), engine, List.of(o), includes, diffs, where);
      }
    }
  }

  /** One session, with the invariant check around it. */
  private static SessionOutcome session(VolcanoEngine engine, List<String> actions, Set<String> configured,
      List<String> diffs, String where) {
    List<HierarchyInvariant.Violation> before = invariants(engine);
    SessionOutcome o = engine.runSession(actions, configured);
    for (HierarchyInvariant.Violation v : invariants(engine)) {
      boolean known = false;
      for (HierarchyInvariant.Violation b : before) {
        known |= b.kind().equals(v.kind()) && b.queueOrNode().equals(v.queueOrNode())
            && b.resource().equals(v.resource()) && b.used() >= v.used();
      }
      if (!known) {
        diffs.add(where + "invariant broken: " + v);
      }
    }
    return o;
  }

  /** Both the always-on invariants and the strict enqueued+allocated bound (no case here disrupts pods). */
  private static List<HierarchyInvariant.Violation> invariants(VolcanoEngine engine) {
    List<HierarchyInvariant.Violation> v = new ArrayList<>(engine.checkInvariants());
    v.addAll(engine.checkReservations());
    return v;
  }

  private static void compare(JsonNode expect, VolcanoEngine engine, List<SessionOutcome> outcomes, boolean includes,
      List<String> diffs, String where) {
    TreeMap<String, String> gotBinds = new TreeMap<>();
    List<String> gotEvicted = new ArrayList<>();
    for (SessionOutcome o : outcomes) {
      for (SessionOutcome.Bind b : o.binds()) {
        gotBinds.put(b.pod().id(), b.node());
      }
      for (SessionOutcome.Eviction e : o.evictions()) {
        gotEvicted.add(e.pod().id());
      }
    }
    SessionOutcome lastOutcome = outcomes.get(outcomes.size() - 1);
    if (expect.has("binds")) {
      TreeMap<String, String> want = new TreeMap<>();
      expect.get("binds").fields().forEachRemaining(e -> want.put(e.getKey(), e.getValue().asText()));
      if (includes) {
        for (Map.Entry<String, String> e : want.entrySet()) {
          if (!e.getValue().equals(gotBinds.get(e.getKey()))) {
            diffs.add(where + "binds: expected to include " + e.getKey() + "=" + e.getValue() + " got " + gotBinds);
          }
        }
      } else if (!want.equals(gotBinds)) {
        diffs.add(where + "binds: expected " + want + " got " + gotBinds);
      }
    }
    if (expect.has("evicted")) {
      List<String> want = new ArrayList<>();
      expect.get("evicted").forEach(v -> want.add(v.asText()));
      List<String> w = new ArrayList<>(want);
      List<String> g = new ArrayList<>(gotEvicted);
      w.sort(null);
      g.sort(null);
      if (!w.equals(g)) {
        diffs.add(where + "evicted: expected " + w + " got " + g);
      }
    }
    if (expect.has("pipelined")) {
      for (Iterator<Map.Entry<String, JsonNode>> it = expect.get("pipelined").fields(); it.hasNext();) {
        Map.Entry<String, JsonNode> e = it.next();
        List<String> nodes = new ArrayList<>();
        e.getValue().forEach(n -> nodes.add(n.asText()));
        List<String> got = lastOutcome.pipelined().get(e.getKey());
        if (got == null || got.isEmpty()) {
          diffs.add(where + "pipelined " + e.getKey() + ": expected tasks pipelined on " + nodes + " got none");
        } else if (!nodes.containsAll(got)) {
          diffs.add(where + "pipelined " + e.getKey() + ": expected on " + nodes + " got " + got);
        }
      }
    }
    if (expect.has("phases")) {
      for (Iterator<Map.Entry<String, JsonNode>> it = expect.get("phases").fields(); it.hasNext();) {
        Map.Entry<String, JsonNode> e = it.next();
        PodGroup pg = engine.podGroup(e.getKey());
        String got = pg == null ? "no such PodGroup" : pg.phase().volcanoName();
        if (!e.getValue().asText().equals(got)) {
          diffs.add(where + "phase of " + e.getKey() + ": expected " + e.getValue().asText() + " got " + got);
        }
      }
    }
  }
}
