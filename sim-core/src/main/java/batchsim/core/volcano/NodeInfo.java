package batchsim.core.volcano;

import java.util.LinkedHashMap;
import java.util.Map;

/** A node inside one session (Volcano's NodeInfo): idle, used, releasing and pipelined resources. */
final class NodeInfo {
  final Node node;
  final String name;
  final Res allocatable;
  final Res idle;
  final Res used;
  final Res releasing;
  final Res pipelined;
  final Map<TaskInfo, TaskStatus> tasks = new LinkedHashMap<>();

  NodeInfo(Node node) {
    this.node = node;
    this.name = node.name;
    this.allocatable = node.allocatable;
    this.idle = node.allocatable.copy();
    int n = node.allocatable.size();
    this.used = new Res(n);
    this.releasing = new Res(n);
    this.pipelined = new Res(n);
  }

  /** Idle + Releasing - Pipelined. */
  Res futureIdle() {
    return idle.copy().add(releasing).sub(pipelined);
  }

  /** NodeInfo.AddTask: accounts the task by its current status. */
  void addTask(TaskInfo t) {
    switch (t.status) {
      case RELEASING:
        idle.sub(t.resreq);
        releasing.add(t.resreq);
        used.add(t.resreq);
        break;
      case PIPELINED:
        pipelined.add(t.resreq);
        break;
      default:
        idle.sub(t.resreq);
        used.add(t.resreq);
        break;
    }
    t.node = this;
    tasks.put(t, t.status);
  }

  /** NodeInfo.RemoveTask: reverses the accounting of the status recorded at add time. */
  void removeTask(TaskInfo t) {
    TaskStatus s = tasks.remove(t);
    if (s == null) {
      return;
    }
    switch (s) {
      case RELEASING:
        releasing.sub(t.resreq);
        idle.add(t.resreq);
        used.sub(t.resreq);
        break;
      case PIPELINED:
        pipelined.sub(t.resreq);
        break;
      default:
        idle.add(t.resreq);
        used.sub(t.resreq);
        break;
    }
  }

  void updateTask(TaskInfo t) {
    removeTask(t);
    addTask(t);
  }

  @Override
  public String toString() {
    return name;
  }
}
