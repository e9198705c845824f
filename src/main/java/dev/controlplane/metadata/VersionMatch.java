package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Resource;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A condition on a resource's current metadata version that a write requires: what HTTP's {@code
 * If-Match} and {@code If-None-Match: *} state (an entity tag is a version). It is checked inside
 * the write's transaction, under the version lock, so no other write can come between the check and
 * the change.
 */
public record VersionMatch(Kind kind, Set<Long> versions) {

  /** What is required. */
  public enum Kind {
    /** Nothing. */
    ANY,
    /** The resource exists ({@code If-Match: *}). */
    EXISTS,
    /** The resource does not exist ({@code If-None-Match: *}). */
    ABSENT,
    /** The resource exists at one of {@link #versions()}; an empty set never matches. */
    ONE_OF
  }

  public static final VersionMatch NONE = new VersionMatch(Kind.ANY, Set.of());

  public VersionMatch {
    versions = Set.copyOf(versions);
  }

  public static VersionMatch oneOf(Set<Long> versions) {
    return new VersionMatch(Kind.ONE_OF, versions);
  }

  /** Throws PRECONDITION_FAILED (HTTP 412) unless {@code current} satisfies this. */
  void check(Optional<? extends Resource> current) {
    boolean holds =
        switch (kind) {
          case ANY -> true;
          case EXISTS -> current.isPresent();
          case ABSENT -> current.isEmpty();
          case ONE_OF -> current.isPresent() && versions.contains(current.get().version());
        };
    if (!holds) {
      throw new ControlPlaneException(ErrorCode.PRECONDITION_FAILED, failure(current));
    }
  }

  private String failure(Optional<? extends Resource> current) {
    String now =
        current
            .map(r -> "it is at version " + r.version() + " (ETag \"" + r.version() + "\")")
            .orElse("it does not exist");
    return switch (kind) {
      case EXISTS -> "If-Match: * requires the resource to exist, but " + now;
      case ABSENT -> "If-None-Match: * requires the resource not to exist, but " + now;
      default ->
          "If-Match "
              + new TreeSet<>(versions)
                  .stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(", "))
              + " does not match: "
              + now;
    };
  }
}
