package batchsim.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventLoopTest {
  @Test
  void next_sameTime_ordersByKindThenInsertion() {
    EventLoop loop = new EventLoop();
    loop.schedule(10, EventKind.SCHEDULE, e -> { }, "cycle");
    loop.schedule(10, EventKind.ARRIVAL, e -> { }, "a1");
    loop.schedule(5, EventKind.SAMPLE, e -> { }, "early");
    loop.schedule(10, EventKind.FINISH, e -> { }, "f");
    loop.schedule(10, EventKind.ARRIVAL, e -> { }, "a2");
    List<String> seen = new ArrayList<>();
    Event e;
    while ((e = loop.next(Long.MAX_VALUE)) != null) {
      seen.add(e.time() + ":" + e.payload());
    }
    // Time first; at 10 ms the finish releases capacity before arrivals, and the cycle runs last.
    assertEquals(List.of("5:early", "10:f", "10:a1", "10:a2", "10:cycle"), seen);
    assertEquals(5, loop.processed());
  }

  @Test
  void next_beyondHorizon_returnsNullAndKeepsClock() {
    EventLoop loop = new EventLoop();
    loop.schedule(100, EventKind.ARRIVAL, e -> { }, "x");
    assertNull(loop.next(99));
    assertEquals(0, loop.now());
    assertEquals(100, loop.next(100).time());
    assertEquals(100, loop.now());
  }

  @Test
  void schedule_inThePast_isRejected() {
    EventLoop loop = new EventLoop();
    loop.schedule(10, EventKind.ARRIVAL, e -> { }, "x");
    loop.next(Long.MAX_VALUE);
    assertThrows(IllegalStateException.class, () -> loop.schedule(9, EventKind.ARRIVAL, e -> { }, "y"));
  }
}
