package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.reports.Provenance;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class VersionTest {
  private static Provenance.Build build(String text) throws Exception {
    Properties p = new Properties();
    p.load(new StringReader(text));
    return Version.build(p);
  }

  @Test
  void aCheckoutBuild_namesItsCommit_andWhetherItWasDirty() throws Exception {
    assertEquals(new Provenance.Build("1.2.3", "f6921fc447221bc7c8db3b86d3368a1d17a56447", false),
        build("version=1.2.3\ncommit=f6921fc447221bc7c8db3b86d3368a1d17a56447\ndirty=false\n"));
    assertEquals("1.2.3 (commit abc, dirty)", build("version=1.2.3\ncommit=abc\ndirty=true\n").describe());
  }

  @Test
  void aBuildOutsideACheckout_orUnfiltered_saysUnknown() throws Exception {
    assertEquals(new Provenance.Build("1.2.3", "unknown", null), build("version=1.2.3\ncommit=unknown\ndirty=unknown\n"));
    assertEquals(new Provenance.Build("unknown", "unknown", null),
        build("version=${project.version}\ncommit=${batchsim.commit}\ndirty=${batchsim.dirty}\n"));
  }

  @Test
  void theJarsOwnBuild_isReadFromItsResource() {
    Provenance.Build b = Version.build();
    if (Files.exists(Path.of("..", ".git"))) { // built in a checkout (tests run in the module's directory)
      assertTrue(b.commit().matches("[0-9a-f]{40}"), b.commit());
      assertNotNull(b.dirty());
    } else {
      assertEquals("unknown", b.commit());
    }
    assertTrue(new Version().getVersion()[0].startsWith("batchsim " + b.version() + " (commit "));
  }
}
