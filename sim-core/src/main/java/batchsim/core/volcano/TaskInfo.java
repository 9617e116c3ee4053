package batchsim.core.volcano;

/** A pod inside one session (Volcano's TaskInfo): its status and node change as actions run. */
final class TaskInfo {
  final Pod pod;
  final JobInfo job;
  final String uid;
  final String role;
  /** Resreq and InitResreq (the same request here). */
  final Res resreq;
  final int priority;
  final boolean preemptable;
  final boolean bestEffort;
  TaskStatus status;
  NodeInfo node;

  TaskInfo(Pod pod, JobInfo job) {
    this.pod = pod;
    this.job = job;
    this.uid = pod.uid;
    this.role = pod.spec.role();
    this.resreq = pod.request;
    this.priority = pod.priority;
    this.preemptable = pod.spec.preemptable();
    this.bestEffort = pod.bestEffort;
    this.status = TaskStatus.of(pod.state);
  }

  String id() {
    return pod.spec.id();
  }

  /** Volcano's default task order (job helpers CompareTask): pod index, then creation time, then UID. */
  static boolean defaultLess(TaskInfo l, TaskInfo r) {
    int li = l.pod.podIndex;
    int ri = r.pod.podIndex;
    if (li == Integer.MIN_VALUE || ri == Integer.MIN_VALUE || li == ri) {
      long lc = l.pod.spec.createdMs();
      long rc = r.pod.spec.createdMs();
      if (lc == rc) {
        return l.uid.compareTo(r.uid) < 0;
      }
      return lc < rc;
    }
    return li < ri;
  }

  @Override
  public String toString() {
    return id();
  }
}
