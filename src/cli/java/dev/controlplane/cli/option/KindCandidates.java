package dev.controlplane.cli.option;

import dev.controlplane.cli.resource.Kind;
import java.util.ArrayList;

/** Kind names for shell completion. */
public final class KindCandidates extends ArrayList<String> {
  public KindCandidates() {
    super(Kind.words());
  }
}
