package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's framework.Statement: allocate, pipeline and evict apply to the session at once (firing the
 * plugins' allocate/deallocate handlers, so queue accounting follows); {@link #discard} undoes them in
 * reverse order, {@link #commit} turns allocations into binds and evictions into real evictions.
 */
final class Statement {
  private enum Op { EVICT, PIPELINE, ALLOCATE }

  private record Operation(Op op, TaskInfo task, String reason) {}

  private final Session ssn;
  private List<Operation> ops = new ArrayList<>();

  Statement(Session ssn) {
    this.ssn = ssn;
  }


  void evict(TaskInfo t, String reason) {
    t.job.updateTaskStatus(t, TaskStatus.RELEASING);
    if (t.node != null) {
      t.node.updateTask(t);
    }
    ssn.plugins.fireDeallocate(t);
    ops.add(new Operation(Op.EVICT, t, reason));
  }

  void pipeline(TaskInfo t, NodeInfo node) {
    t.job.updateTaskStatus(t, TaskStatus.PIPELINED);
    node.addTask(t);
    ssn.plugins.fireAllocate(t);
    ops.add(new Operation(Op.PIPELINE, t, null));
  }

  void allocate(TaskInfo t, NodeInfo node) {
    t.job.updateTaskStatus(t, TaskStatus.ALLOCATED);
    node.addTask(t);
    ssn.plugins.fireAllocate(t);
    ops.add(new Operation(Op.ALLOCATE, t, null));
  }

  private void unevict(TaskInfo t) {
    t.job.updateTaskStatus(t, TaskStatus.RUNNING);
    if (t.node != null) {
      t.node.updateTask(t);
    }
    ssn.plugins.fireAllocate(t);
  }

  /** Statement.UnPipeline: takes a pipelined task back to Pending. */
  void unpipeline(TaskInfo t) {
    unplace(t);
  }

  private void unplace(TaskInfo t) {
    t.job.updateTaskStatus(t, TaskStatus.PENDING);
    if (t.node != null) {
      t.node.removeTask(t);
    }
    ssn.plugins.fireDeallocate(t);
    t.node = null;
  }

  /** Undoes every operation, newest first. */
  void discard() {
    for (int i = ops.size() - 1; i >= 0; i--) {
      Operation o = ops.get(i);
      if (o.op == Op.EVICT) {
        unevict(o.task);
      } else {
        unplace(o.task);
      }
    }
    ops = new ArrayList<>();
  }

  /** Evictions go out, allocations become binds; pipelined tasks stay as they are in the session. */
  void commit() {
    for (Operation o : ops) {
      switch (o.op) {
        case EVICT -> ssn.evicted.put(o.task, o.reason);
        case ALLOCATE -> ssn.dispatch(o.task);
        case PIPELINE -> { }
      }
    }
    ops = new ArrayList<>();
  }

  /** Takes over the operations of {@code other} (already applied to the session). */
  void merge(Statement other) {
    ops.addAll(other.ops);
    other.ops = new ArrayList<>();
  }
}
