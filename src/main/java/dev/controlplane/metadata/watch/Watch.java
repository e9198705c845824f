package dev.controlplane.metadata.watch;

/** A handle on an open watch, to cancel it when the client goes away. */
public interface Watch {

  void cancel();

  /** Call when the sink may have become ready again. */
  void wake();
}
