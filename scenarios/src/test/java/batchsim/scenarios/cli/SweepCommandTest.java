package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.reports.Reports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepCommandTest {
  static final String SMALL = "src/test/resources/sweep/small.yaml";

  @TempDir
  Path tmp;

  @Test
  void everyCellRuns_andWritesItsReports_andTheTables() throws Exception {
    Path out = tmp.resolve("sweep");
    Cli.Result r = Cli.run("sweep", SMALL, "--parallel", "2", "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    List<String> cells;
    try (Stream<Path> s = Files.list(out.resolve("cells"))) {
      cells = s.map(p -> p.getFileName().toString()).sorted().toList();
    }
    assertEquals(List.of("nodePools.gpu.count=1,quota=low,seed=7", "nodePools.gpu.count=1,quota=low,seed=8",
        "nodePools.gpu.count=2,quota=high,seed=7", "nodePools.gpu.count=2,quota=high,seed=8",
        "nodePools.gpu.count=2,quota=low,seed=7", "nodePools.gpu.count=2,quota=low,seed=8"), cells,
        "2 x 2 combinations, one excluded, 2 replicas from the scenario's seed");
    for (String c : cells) {
      assertTrue(Files.isRegularFile(out.resolve("cells").resolve(c).resolve(Reports.SUMMARY_JSON)), c);
    }
    List<String> csv = Files.readAllLines(out.resolve("sweep.csv"));
    assertEquals(4, csv.size());
    assertTrue(csv.get(0).startsWith("configuration,nodePools.gpu.count,quota,runs,p50(wait) mean ms,p50(wait) ci95 ms,"),
        csv.get(0));
    assertTrue(csv.get(1).startsWith("\"nodePools.gpu.count=1,quota=low\",1,low,2,"), csv.get(1));
    assertEquals(7, Files.readAllLines(out.resolve("cells.csv")).size());
    String html = Files.readString(out.resolve("sweep.html"));
    assertTrue(html.contains("<a href=\"cells/nodePools.gpu.count=1,quota=low,seed=7/report.html\">"), html);
    assertTrue(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"), "self-contained");
    assertTrue(r.out().startsWith("nodePools.gpu.count  quota  runs  p50(wait)"), r.out());
  }

  @Test
  void outputIsIdenticalWhateverTheParallelism() throws Exception {
    Path one = tmp.resolve("p1");
    Path three = tmp.resolve("p3");
    assertEquals(0, Cli.run("sweep", SMALL, "-q", "--parallel", "1", "--out", one.toString()).exit());
    assertEquals(0, Cli.run("sweep", SMALL, "-q", "--parallel", "3", "--out", three.toString()).exit());
    for (String f : List.of("sweep.csv", "cells.csv", "sweep.html")) {
      assertEquals(Files.readString(one.resolve(f)), Files.readString(three.resolve(f)), f);
    }
    try (Stream<Path> s = Files.walk(one)) {
      for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        assertEquals(-1L, Files.mismatch(p, three.resolve(one.relativize(p))), one.relativize(p).toString());
      }
    }
  }

  @Test
  void metricsAndReplicas_canBeChosen() throws Exception {
    Path out = tmp.resolve("m");
    Cli.Result r = Cli.run("sweep", SMALL, "-q", "--replicas", "1", "--metric", "p99(wait{queue=team-b})",
        "--metric", "count(finished)", "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    List<String> csv = Files.readAllLines(out.resolve("sweep.csv"));
    assertEquals("configuration,nodePools.gpu.count,quota,runs,p99(wait{queue=team-b}) mean ms,"
        + "p99(wait{queue=team-b}) ci95 ms,count(finished) mean,count(finished) ci95", csv.get(0));
    assertTrue(csv.get(1).endsWith(",30,"), "one replica: no interval; " + csv.get(1));
  }

  @Test
  void badInput_exits2() {
    Cli.Result r = Cli.run("sweep", SMALL, "--metric", "p95(wiat)", "--out", tmp.resolve("x").toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: --metric p95(wiat): unknown series 'wiat' (expected wait, start, completion) "
        + "(at character 5)"), r.errLines());
    Cli.Result s = Cli.run("sweep", SMALL, "--set", "matrix.quota.low={clusterQueues.team-x.quota.gpu.cpu: 1}",
        "--out", tmp.resolve("y").toString());
    assertEquals(2, s.exit());
    assertEquals(List.of("--set matrix.quota.low={clusterQueues.team-x.quota.gpu.cpu: 1}: "
        + "matrix.quota.low[clusterQueues.team-x.quota.gpu.cpu]: no item named 'team-x' in clusterQueues (known: team-a, "
        + "team-b)"), s.errLines());
  }

  @Test
  void exampleSweep_runsInOneCommand() throws Exception {
    Path out = tmp.resolve("ex");
    Cli.Result r = Cli.run("sweep", "examples/sweep-gpu-pool.yaml", "--replicas", "1", "--parallel", "2", "--out",
        out.toString());
    assertEquals(0, r.exit(), r.err());
    List<String> csv = Files.readAllLines(out.resolve("sweep.csv"));
    assertEquals(List.of("configuration", "gpu=48,fairSharing=off", "gpu=48,fairSharing=on", "gpu=64,fairSharing=off",
        "gpu=64,fairSharing=on", "gpu=96,fairSharing=off", "gpu=96,fairSharing=on"),
        csv.stream().map(l -> l.startsWith("\"") ? l.substring(1, l.indexOf('"', 1)) : l.split(",")[0]).toList());
  }
}
