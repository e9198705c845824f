package dev.controlplane.audit;

/**
 * The actor of the request the current thread serves. Adapters bind it when a request starts (HTTP
 * filter, gRPC listener, bootstrap listener) and name the principal once authentication succeeds;
 * the write pipeline takes it when an operation is submitted, on the caller's thread, so no domain
 * method needs an extra parameter for it. Unbound threads (leader duties) act as {@link
 * Actor#SERVICE}.
 */
public final class CurrentActor {

  private static final ThreadLocal<Actor> CURRENT = new ThreadLocal<>();

  private CurrentActor() {}

  public static Actor get() {
    Actor actor = CURRENT.get();
    return actor == null ? Actor.SERVICE : actor;
  }

  /** Binds {@code actor} to this thread until the returned scope closes (then the previous one). */
  public static Scope bind(Actor actor) {
    Actor previous = CURRENT.get();
    CURRENT.set(actor);
    return () -> {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    };
  }

  /** Names the authenticated principal of the bound request; nothing when none is bound. */
  public static void identify(String principal, String principalType) {
    Actor actor = CURRENT.get();
    if (actor != null) {
      CURRENT.set(actor.as(principal, principalType));
    }
  }

  public static void clear() {
    CURRENT.remove();
  }

  /** A binding; closing it restores what was bound before. */
  @FunctionalInterface
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }
}
