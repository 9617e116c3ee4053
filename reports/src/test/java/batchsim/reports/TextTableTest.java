package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextTableTest {
  @Test
  void namesLeft_numbersRight_rulesAndNoTrailingSpaces() {
    TextTable t = new TextTable(1, List.of("NAME", "N", "NOTE"));
    t.row(List.of("a", "1", "x"));
    t.row(Arrays.asList("long-name", "123", null));
    t.rule();
    t.row("all", "124", "");
    assertEquals("""
        > NAME         N  NOTE
        > ---------  ---  ----
        > a            1     x
        > long-name  123
        > ---------  ---  ----
        > all        124
        """, t.text("> "));
  }

  @Test
  void rowsMustMatchTheHeader() {
    assertThrows(IllegalArgumentException.class, () -> new TextTable(1, List.of("A", "B")).row(List.of("x")));
  }
}
