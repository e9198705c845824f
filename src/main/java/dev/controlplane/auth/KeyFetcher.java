package dev.controlplane.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import dev.controlplane.auth.KeyFetcher.KeyFetchFailed.Outcome;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Fetches an issuer's discovery document and key set, and nothing else: https only (unless http is
 * allowed for tests), never to addresses {@link AddressPolicy} refuses, 64 KiB at most, redirects
 * only to the same host. The discovery document's {@code issuer} must be the configured issuer.
 * Each request connects to the very address that was checked ({@link IssuerHttp}).
 *
 * <p>Time is bounded as a whole, not per phase: each request ends {@link #REQUEST_TIMEOUT} after it
 * starts (connect, headers and body — a server that sends headers and then one byte every few
 * seconds is cut off), and the whole fetch by {@link #FETCH_DEADLINE}. Fetches run on a few threads
 * of their own, never on a request thread.
 */
public final class KeyFetcher implements KeySource, AutoCloseable {

  static final int MAX_BYTES = 64 * 1024;
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
  static final Duration FETCH_DEADLINE = Duration.ofSeconds(4);
  private static final int MAX_REDIRECTS = 3;
  private static final int THREADS = 8;
  private static final int QUEUED = 64;
  private static final int LOOKUPS = 32;
  private static final int MIN_RSA_BITS = 2048;
  private static final int MAX_RSA_BITS = 8192;
  private static final Set<BigInteger> RSA_EXPONENTS =
      Set.of(BigInteger.valueOf(3), BigInteger.valueOf(65537));
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Logger LOG = Logger.getLogger(KeyFetcher.class.getName());

  private final boolean allowHttp;
  private final IssuerTrust trust;
  private final AddressPolicy addresses;
  private final IssuerHttp http;
  private final ThreadPoolExecutor pool;
  private final AtomicLong fetches = new AtomicLong();

  /** Looks a host name up; the system's resolver, whose own timeouts may be 10 s or more. */
  interface Resolver {
    InetAddress[] resolve(String host) throws java.net.UnknownHostException;
  }

  private final Resolver resolver;

  /**
   * Name lookups run here, apart from the fetch threads, and are waited for only until the request
   * timeout: a name server that never answers (a tenant may name any host) holds a lookup thread
   * until the system's resolver gives up, never a fetch thread. A lookup never queues: at most
   * {@value #LOOKUPS} run at once, one per host name (fetches that need the same name share it),
   * and beyond them a lookup is refused at once.
   */
  private final ThreadPoolExecutor resolvers;

  /** Told how each fetch ended (the metrics). */
  private volatile java.util.function.Consumer<KeyFetchFailed.Outcome> outcomes = outcome -> {};

  private final java.util.Map<String, CompletableFuture<InetAddress[]>> lookups =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Key servers' certificates must chain to the JVM's default CAs or to one of {@code caFile}'s
   * ({@code SERVICE_CONTROLPLANE_OIDC_CA_FILE}), reread when it changes.
   */
  public KeyFetcher(boolean allowHttp, AddressPolicy addresses, Optional<Path> caFile) {
    this(allowHttp, addresses, InetAddress::getAllByName, IssuerTrust.of(caFile));
  }

  KeyFetcher(boolean allowHttp, AddressPolicy addresses, Resolver resolver, IssuerTrust trust) {
    this.allowHttp = allowHttp;
    this.trust = trust;
    this.addresses = addresses;
    this.resolver = resolver;
    this.resolvers =
        new ThreadPoolExecutor(
            0,
            LOOKUPS,
            30,
            TimeUnit.SECONDS,
            new java.util.concurrent.SynchronousQueue<>(),
            r -> {
              Thread t = new Thread(r, "issuer-host-lookup");
              t.setDaemon(true);
              return t;
            });
    this.http = new IssuerHttp(trust.context(), MAX_BYTES, THREADS, REQUEST_TIMEOUT);
    this.pool =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUED),
            r -> {
              Thread t = new Thread(r, "issuer-key-fetch");
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
  }

  /** Starts fetching the issuer's key set on the fetch threads; fails with a KeyFetchFailed. */
  @Override
  public CompletableFuture<JWKSet> fetchAsync(IssuerRecord issuer) {
    CompletableFuture<JWKSet> fetch;
    try {
      fetch = CompletableFuture.supplyAsync(() -> fetchKeys(issuer), pool);
    } catch (RejectedExecutionException e) {
      fetch =
          CompletableFuture.failedFuture(
              new KeyFetchFailed(Outcome.BUSY, "too many key fetches are queued"));
    }
    return fetch.whenComplete((keys, error) -> outcomes.accept(KeyFetchFailed.of(error)));
  }

  /** The issuer's current key set, through {@code jwks_url} or the discovery document. */
  JWKSet fetchKeys(IssuerRecord issuer) {
    Instant deadline = Instant.now().plus(FETCH_DEADLINE);
    trust.refresh();
    String jwksUrl = issuer.jwksUrl();
    if (jwksUrl == null) {
      JsonNode discovery = json(get(issuer.discoveryUrl(), deadline), "discovery document");
      if (!issuer.issuer().equals(discovery.path("issuer").asText(null))) {
        throw new KeyFetchFailed(Outcome.INVALID, "the discovery document names another issuer");
      }
      jwksUrl =
          Optional.ofNullable(discovery.path("jwks_uri").asText(null))
              .orElseThrow(
                  () ->
                      new KeyFetchFailed(
                          Outcome.INVALID, "the discovery document has no jwks_uri"));
    }
    String body = get(jwksUrl, deadline);
    try {
      return usable(JWKSet.parse(body).toPublicJWKSet());
    } catch (java.text.ParseException e) {
      throw new KeyFetchFailed(Outcome.INVALID, "the issuer's key set is not a JWK set");
    }
  }

  /** Tells {@code listener} how each fetch started from now on ends. */
  public void onOutcome(java.util.function.Consumer<KeyFetchFailed.Outcome> listener) {
    outcomes = listener;
  }

  /** How many key requests this fetcher made (for metrics and tests). */
  public long fetchCount() {
    return fetches.get();
  }

  @Override
  public void close() {
    pool.shutdownNow();
    resolvers.shutdownNow();
    http.close();
  }

  /**
   * The keys worth verifying with. RSA keys under 2048 bits are weak; keys over 8192 bits or with
   * an exponent other than 65537 or 3 make every junk token expensive to check (a 3071-bit exponent
   * costs about five times a normal verification): they are dropped, and logged.
   */
  static JWKSet usable(JWKSet set) {
    return new JWKSet(
        set.getKeys().stream()
            .filter(
                key -> {
                  Optional<String> why = heavy(key);
                  why.ifPresent(w -> LOG.warning("ignoring key " + key.getKeyID() + ": " + w));
                  return why.isEmpty();
                })
            .toList());
  }

  private static Optional<String> heavy(JWK key) {
    if (!(key instanceof RSAKey rsa)) {
      return Optional.empty();
    }
    int bits = rsa.getModulus().decodeToBigInteger().bitLength();
    if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) {
      return Optional.of("an RSA modulus of " + bits + " bits (2048 to 8192 are used)");
    }
    if (!RSA_EXPONENTS.contains(rsa.getPublicExponent().decodeToBigInteger())) {
      return Optional.of("an RSA public exponent other than 65537 or 3");
    }
    return Optional.empty();
  }

  private String get(String url, Instant deadline) {
    Target target = checked(url, deadline);
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      IssuerHttp.Answer answer = send(target, deadline);
      int status = answer.status();
      if (status >= 300 && status < 400 && answer.location().isPresent()) {
        URI next = target.uri().resolve(answer.location().get());
        if (!target.uri().getHost().equalsIgnoreCase(String.valueOf(next.getHost()))) {
          throw new KeyFetchFailed(Outcome.REFUSED, "the issuer redirected to another host");
        }
        target = checked(next.toString(), deadline);
        continue;
      }
      if (status != 200) {
        throw new KeyFetchFailed(Outcome.INVALID, "the issuer answered " + status);
      }
      return new String(answer.body(), StandardCharsets.UTF_8);
    }
    throw new KeyFetchFailed(Outcome.INVALID, "too many redirects");
  }

  /** One request whose headers and body arrive before the request timeout and the deadline. */
  private IssuerHttp.Answer send(Target target, Instant deadline) {
    Duration left = Duration.between(Instant.now(), deadline);
    if (left.isNegative() || left.isZero()) {
      throw new KeyFetchFailed(Outcome.TIMEOUT, "the issuer did not answer in time");
    }
    Duration timeout = left.compareTo(REQUEST_TIMEOUT) < 0 ? left : REQUEST_TIMEOUT;
    fetches.incrementAndGet();
    return http.get(target.uri(), target.address(), timeout);
  }

  /** A URL that passed the rules, and the checked address its request connects to. */
  record Target(URI uri, InetAddress address) {}

  /** Scheme and address rules, checked before every request, redirects included. */
  Target checked(String url, Instant deadline) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (java.net.URISyntaxException e) {
      throw new KeyFetchFailed(Outcome.REFUSED, "not a URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !(allowHttp && scheme.equals("http"))) {
      throw new KeyFetchFailed(Outcome.REFUSED, "key URLs must be https");
    }
    if (uri.getHost() == null || uri.getUserInfo() != null) {
      throw new KeyFetchFailed(Outcome.REFUSED, "key URLs need a host and no user info");
    }
    InetAddress[] resolved = resolve(uri.getHost(), deadline);
    if (resolved.length == 0) {
      throw new KeyFetchFailed(Outcome.UNREACHABLE, "the issuer's host does not resolve");
    }
    for (InetAddress address : resolved) {
      Optional<String> refusal = addresses.refusal(address);
      if (refusal.isPresent()) {
        throw new KeyFetchFailed(
            Outcome.REFUSED,
            "key URL host "
                + uri.getHost()
                + " is "
                + address.getHostAddress()
                + ", "
                + refusal.get());
      }
    }
    // The first, as the JDK connects to a host name's first address.
    return new Target(uri, resolved[0]);
  }

  private InetAddress[] resolve(String host, Instant deadline) {
    Duration left = Duration.between(Instant.now(), deadline);
    Duration wait = left.compareTo(REQUEST_TIMEOUT) < 0 ? left : REQUEST_TIMEOUT;
    CompletableFuture<InetAddress[]> lookup = new CompletableFuture<>();
    CompletableFuture<InetAddress[]> running = lookups.putIfAbsent(host, lookup);
    if (running == null) {
      startLookup(host, lookup);
    } else {
      lookup = running;
    }
    try {
      return lookup.get(Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new KeyFetchFailed(Outcome.TIMEOUT, "the issuer's host name did not resolve in time");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof KeyFetchFailed refused
          ? refused
          : new KeyFetchFailed(Outcome.UNREACHABLE, "the issuer's host does not resolve");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyFetchFailed(
          Outcome.UNREACHABLE, "interrupted while looking the issuer's host up");
    }
  }

  private void startLookup(String host, CompletableFuture<InetAddress[]> lookup) {
    try {
      resolvers.execute(
          () -> {
            try {
              lookup.complete(resolver.resolve(host));
            } catch (java.net.UnknownHostException | RuntimeException e) {
              lookup.completeExceptionally(e);
            } finally {
              // The next fetch asks again (the JDK caches answers for 30 s).
              lookups.remove(host, lookup);
            }
          });
    } catch (RejectedExecutionException e) {
      lookups.remove(host, lookup);
      lookup.completeExceptionally(
          new KeyFetchFailed(Outcome.BUSY, "too many issuer host names are being looked up"));
    }
  }

  private static JsonNode json(String body, String what) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new KeyFetchFailed(Outcome.INVALID, "the " + what + " is not JSON");
    }
  }

  /** A key fetch that failed; the token is then refused (401), the reason only logged. */
  static final class KeyFetchFailed extends RuntimeException {

    /**
     * How a fetch ended, as {@code controlplane_issuer_key_fetches_total{outcome}} counts it: an
     * operator tells a key server that is down from one the node refuses to trust or to reach.
     */
    enum Outcome {
      FETCHED,
      /** No answer in time: connecting, the answer, or the host name's lookup. */
      TIMEOUT,
      /** The host does not resolve or refuses the connection. */
      UNREACHABLE,
      /** The certificate is not trusted or not the host's. */
      TLS,
      /** The node's rules refused the URL: scheme, address, a redirect to another host. */
      REFUSED,
      /** An answer that is not a usable discovery document or key set. */
      INVALID,
      /** Too many fetches or lookups at once; refused without trying. */
      BUSY,
      /** Anything else (a bug). */
      ERROR;

      /** The metric's label value. */
      String label() {
        return name().toLowerCase(Locale.ROOT);
      }
    }

    private final Outcome outcome;

    KeyFetchFailed(Outcome outcome, String reason) {
      super(reason, null, false, false);
      this.outcome = outcome;
    }

    Outcome outcome() {
      return outcome;
    }

    /** The outcome of a fetch that ended with {@code error} (or succeeded: null). */
    static Outcome of(Throwable error) {
      Throwable cause = error;
      while (cause instanceof java.util.concurrent.CompletionException
          && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause == null) {
        return Outcome.FETCHED;
      }
      return cause instanceof KeyFetchFailed failed ? failed.outcome() : Outcome.ERROR;
    }
  }
}
