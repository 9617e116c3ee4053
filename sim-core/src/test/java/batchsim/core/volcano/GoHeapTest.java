package batchsim.core.volcano;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GoHeapTest {
  @Test
  void popsInLessOrder() {
    GoHeap<Integer> h = new GoHeap<>((a, b) -> a < b);
    SplittableRandom r = new SplittableRandom(7);
    List<Integer> in = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      int x = r.nextInt(50);
      in.add(x);
      h.push(x);
    }
    in.sort(null);
    List<Integer> out = new ArrayList<>();
    while (!h.isEmpty()) {
      out.add(h.pop());
    }
    assertEquals(in, out);
  }

  @Test
  void matchesGoContainerHeapOnStaleKeys() {
    // Go: push 3,1,2 into a min-heap -> items [1,3,2]; then key of 3 drops to 0 without Fix; Pop gives 1 then
    // (down from [2,0]: 0 < 2 -> swap) 0 then 2.
    int[] key = {0, 1, 2, 3};
    GoHeap<Integer> h = new GoHeap<>((a, b) -> key[a] < key[b]);
    h.push(3);
    h.push(1);
    h.push(2);
    key[3] = 0;
    assertEquals(1, h.pop());
    assertEquals(3, h.pop());
    assertEquals(2, h.pop());
  }
}
