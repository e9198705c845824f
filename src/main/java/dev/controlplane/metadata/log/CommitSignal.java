package dev.controlplane.metadata.log;

/** Told when a metadata write committed somewhere (on this node, or on another through NOTIFY). */
public interface CommitSignal {
  /** Something committed; which versions is not known. */
  void committed();

  /** Versions up to {@code version} committed. */
  void committedUpTo(long version);
}
