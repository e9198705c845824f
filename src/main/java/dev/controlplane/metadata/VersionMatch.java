package dev.controlplane.metadata;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ErrorCode;
import dev.controlplane.metadata.model.Resource;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The conditions on a resource's current metadata version that a write requires: what HTTP's {@code
 * If-Match} and {@code If-None-Match: *} state (an entity tag is a version), and the version the
 * written document or request states itself ({@code metadata.version}; 0 for "must not exist yet").
 * They are checked by the write's operation against the state its batch sees, so no other write can
 * come between the check and the change.
 *
 * <p>A failed header condition is PRECONDITION_FAILED (HTTP 412, as RFC 9110 says); a stated
 * version that is not the current one is CONFLICT (409, decisions.md), as Kubernetes answers a
 * stale {@code resourceVersion}.
 */
public record VersionMatch(Kind kind, Set<Long> versions, OptionalLong statedVersion) {

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

  public static final VersionMatch NONE = of(Kind.ANY, Set.of());

  public VersionMatch {
    versions = Set.copyOf(versions);
  }

  public static VersionMatch of(Kind kind, Set<Long> versions) {
    return new VersionMatch(kind, versions, OptionalLong.empty());
  }

  public static VersionMatch oneOf(Set<Long> versions) {
    return of(Kind.ONE_OF, versions);
  }

  /** No header condition, only the version a request states (when it states one). */
  public static VersionMatch stated(OptionalLong version) {
    return NONE.andStated(version);
  }

  /** This, and the version the document or request states (when it states one). */
  public VersionMatch andStated(OptionalLong version) {
    return new VersionMatch(kind, versions, version);
  }

  /**
   * Throws PRECONDITION_FAILED (HTTP 412) unless {@code current} satisfies the header condition,
   * then CONFLICT (409) unless it is at the stated version (absent counts as version 0).
   */
  public void check(Optional<? extends Resource> current) {
    checkHeader(current);
    if (statedVersion.isPresent()) {
      long actual = current.map(Resource::version).orElse(0L);
      if (statedVersion.getAsLong() != actual) {
        throw ControlPlaneException.conflict(
            "metadata.version "
                + statedVersion.getAsLong()
                + " is not the current version "
                + actual);
      }
    }
  }

  private void checkHeader(Optional<? extends Resource> current) {
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
          versions.isEmpty()
              ? "If-Match names no strong entity tag of a version (a weak tag such as W/\"42\""
                  + " never matches: If-Match compares strongly), so it does not match: "
                  + now
              : "If-Match "
                  + new TreeSet<>(versions)
                      .stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(", "))
                  + " does not match: "
                  + now;
    };
  }
}
