package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringWriter;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CsvWriterTest {
  @Test
  void quotesOnlyWhenNeeded_doublesQuotes_nullIsEmpty() throws Exception {
    StringWriter out = new StringWriter();
    try (CsvWriter csv = new CsvWriter(out)) {
      csv.row(Arrays.asList("plain", null, "", "a,b", "say \"hi\"", "two\nlines", "cr\r", "é ±"));
      csv.cell(-5).cell("x").endRow();
    }
    assertEquals("plain,,,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",é ±\n-5,x\n", out.toString());
  }
}
