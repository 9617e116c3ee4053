package batchsim.core.kueue.tas;

import batchsim.core.model.Toleration;
import batchsim.core.model.TopologyRequest;
import java.util.List;
import java.util.SortedMap;

/**
 * Kueue TASPodSetRequests: what one podSet asks of a TAS flavor. {@code podRequest} is one pod's requests
 * plus {@code pods: 1} (Kueue adds OnePodRequest); {@code request} is the podSet's topology request, or
 * null when TAS is implied (a podSet without annotations in a TAS-only ClusterQueue).
 */
public record PodSetRequest(String name, long[] podRequest, int count, TopologyRequest request,
    SortedMap<String, String> nodeSelector, List<Toleration> tolerations) {

  /** Kueue isTASImplied: no explicit request (the ClusterQueue is TAS-only). */
  public boolean implied() {
    return request == null;
  }
}
