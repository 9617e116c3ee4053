package batchsim.core.kueue;

import batchsim.core.model.Quantity;
import batchsim.core.model.ResourceSpace;
import java.util.List;

/**
 * Dense indexing of Kueue's FlavorResource pairs: {@code fr = flavor * R + resource}. Every quota and
 * usage vector in the engine is a {@code long[F * R]} indexed this way.
 */
public final class FlavorResources {
  private final List<String> flavors;
  private final ResourceSpace resources;

  FlavorResources(List<String> flavors, ResourceSpace resources) {
    this.flavors = List.copyOf(flavors);
    this.resources = resources;
  }

  public int size() {
    return flavors.size() * resources.size();
  }

  public int fr(int flavor, int resource) {
    return flavor * resources.size() + resource;
  }

  public int flavorOf(int fr) {
    return fr / resources.size();
  }

  public int resourceOf(int fr) {
    return fr % resources.size();
  }

  public int flavorIndex(String name) {
    return flavors.indexOf(name);
  }

  public String flavorName(int f) {
    return flavors.get(f);
  }

  public ResourceSpace resources() {
    return resources;
  }

  public String resourceName(int fr) {
    return resources.name(resourceOf(fr));
  }

  public String flavorName(int fr, boolean ofFr) {
    return flavors.get(flavorOf(fr));
  }

  /** Formats an amount of fr's resource, e.g. "8" GPUs or "1.5" cpu. */
  public String format(int fr, long amount) {
    return Quantity.format(resourceName(fr), amount);
  }
}
