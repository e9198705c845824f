package dev.controlplane.bench;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.controlplane.auth.EcVerifiers;
import dev.controlplane.auth.Ed25519JwsSigner;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.OidcProvider;
import dev.controlplane.it.support.Ports;
import dev.controlplane.it.support.ServerProcess;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.it.support.TestDatabase;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * Token exchanges per second with distinct upstream tokens (each a different subject, so no cache
 * can help), next to the single-thread ES256-verify and Ed25519-sign rates measured in the same
 * run: an exchange needs one of each, so their rates bound it per core.
 */
public final class AuthBenchmark {

  private static final int THREADS = Integer.getInteger("bench.threads", 8);
  private static final Duration DURATION = Duration.ofSeconds(Long.getLong("bench.seconds", 20));
  private static final Duration CRYPTO = Duration.ofSeconds(Long.getLong("bench.cryptoSeconds", 5));
  // Bouncy Castle's verification kept speeding up for several seconds of C2 compiling: after a
  // 1 s warm-up it measured 2,600-3,000/s where a JVM that had run it for 10 s measured
  // 6,000-8,000.
  private static final Duration CRYPTO_WARM_UP =
      Duration.ofSeconds(Long.getLong("bench.cryptoWarmUpSeconds", 10));
  // Upstream tokens for the measured part, minted up front; the warm-up mints its own as it goes
  // (its clients' CPU is not measured).
  private static final int TOKENS = Integer.getInteger("bench.tokens", 60_000);
  // -Dbench.exchanges=false: only the reads with a service token.
  private static final boolean EXCHANGES =
      Boolean.parseBoolean(System.getProperty("bench.exchanges", "true"));

  public static void main(String[] args) throws Exception {
    System.out.printf(
        "machine: %d cores, JDK %s%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    double jdkVerify = es256Verify(false);
    double verify = es256Verify(true);
    double tinkSign = ed25519Sign(false);
    double sign = ed25519Sign(true);
    System.out.printf(
        "ES256 verify (nimbus + the JDK's SunEC, 1 thread; the node before 2026-11-27): %,.0f/s%n",
        jdkVerify);
    System.out.printf(
        "ES256 verify (nimbus + Bouncy Castle, 1 thread; as the node verifies): %,.0f/s%n", verify);
    System.out.printf(
        "Ed25519 sign (nimbus + Tink, 1 thread; the node before 2026-11-27): %,.0f/s%n", tinkSign);
    System.out.printf("Ed25519 sign (Bouncy Castle, 1 thread; as the node signs): %,.0f/s%n", sign);
    String db = TestDatabase.url(System.getProperty("bench.db", "controlplane_bench_auth"));
    TestDatabase.reset(db);
    int httpPort = Ports.free();
    Map<String, String> env = BenchNode.environment(httpPort, Ports.free(), db);
    try (ServerProcess server = new ServerProcess("auth-benchmark", env).start()) {
      server.awaitReady(Duration.ofSeconds(180));
      Http operator = new Http(httpPort, SharedServer.OPERATOR_TOKEN);
      setUp(operator);
      double exchangeRate = 0;
      if (EXCHANGES) {
        List<String> tokens = upstreamTokens();
        Measured measured = exchanges(httpPort, tokens, server.serverPid());
        double rate = measured.rate();
        exchangeRate = rate;
        System.out.printf(
            "token exchanges (%d client threads, distinct tokens): %,.0f/s%n", THREADS, rate);
        // An exchange costs one verification and one signature, one after the other: the bound
        // per core is the rate of the pair, not of the cheaper or the dearer alone.
        double crypto = 1000 / verify + 1000 / sign;
        double boundPerCore = 1000 / crypto;
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf(
            "crypto bound: one verify and one sign, 1 / (1/verify + 1/sign) = %,.0f/s per core,"
                + " %,.0f/s on %d cores; exchanges reach %.0f%% of it%n",
            boundPerCore, cores * boundPerCore, cores, 100 * rate / (cores * boundPerCore));
        System.out.printf(
            "the crypto of one exchange (one verify, one sign): %.2f ms of CPU, %.0f%% of the"
                + " node's%n",
            crypto, 100 * crypto / measured.nodeMillis());
      }
      double reads = tenantReads(httpPort, server.serverPid());
      double jwks = keySetReads(httpPort, server.serverPid());
      if (EXCHANGES) {
        System.out.printf(
            "the node's own ceiling on these cores: exchanges are %.0f%% of its key-set reads and"
                + " %.0f%% of its tenant reads with a service token%n",
            100 * exchangeRate / jwks, 100 * exchangeRate / reads);
      }
    }
    System.exit(0);
  }

  private static void setUp(Http operator) {
    check(operator.put("/v1/tenants/bench", Http.tenant("bench", "benchmark")));
    var issuer =
        Http.JSON
            .createObjectNode()
            .put("issuer", OidcProvider.issuer("bench"))
            .put("discovery_url", OidcProvider.discoveryUrl("bench"));
    issuer.putArray("audiences").add(OidcProvider.AUDIENCE);
    issuer.putObject("claim_mappings").put("groups_claim", "groups");
    check(post(operator, "/v1/tenants/bench/idp-issuers", issuer.toString()));
    check(
        post(
            operator,
            "/v1/tenants/bench/rbac/policies",
            "{\"subject\":\"role:pub\",\"object\":\"stream:bench/ns/*\",\"action\":\"stream.publish\"}"));
    check(
        post(
            operator,
            "/v1/tenants/bench/rbac/groupings",
            "{\"principal\":\"group:clients\",\"role\":\"role:pub\"}"));
  }

  private static Http.Reply post(Http http, String path, String body) {
    return http.send(
        http.request(path)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json"));
  }

  private static void check(Http.Reply reply) {
    if (reply.status() >= 300) {
      throw new IllegalStateException(reply.status() + " " + reply.body());
    }
  }

  private static List<String> upstreamTokens() {
    return IntStream.range(0, TOKENS)
        .parallel()
        .mapToObj(i -> upstreamToken("client-" + i))
        .toList();
  }

  /** A token of the test provider for {@code subject}, granted through the group edge. */
  private static String upstreamToken(String subject) {
    return OidcProvider.sign(
        OidcProvider.key("bench"),
        OidcProvider.es256("bench"),
        OidcProvider.claims("bench", subject).claim("groups", List.of("clients")).build());
  }

  /** Exchanges per second, and the node's CPU time per exchange. */
  private record Measured(double rate, double nodeMillis) {}

  private static Measured exchanges(int port, List<String> tokens, long nodePid) throws Exception {
    ConcurrentLinkedQueue<String> queue = new ConcurrentLinkedQueue<>(tokens);
    CpuMeter node = CpuMeter.of("node", nodePid);
    // Warm-up: JIT, connection pools, the issuer's key set; on subjects of its own.
    AtomicLong warmSubjects = new AtomicLong();
    long warm =
        WarmUp.untilSettled(
            "token exchanges",
            node,
            time -> {
              long[] n =
                  run(port, () -> upstreamToken("warm-" + warmSubjects.incrementAndGet()), time);
              return n[0] + n[1];
            });
    CpuMeter postgres = CpuMeter.postgres();
    CpuMeter clients = CpuMeter.clients();
    Duration nodeBefore = node.total();
    Duration postgresBefore = postgres.total();
    Duration clientsBefore = clients.total();
    long start = System.nanoTime();
    long[] counts = run(port, queue::poll, DURATION);
    double seconds = (System.nanoTime() - start) / 1e9;
    long all = counts[0] + counts[1];
    double nodeMillis = node.millisPer(nodeBefore, all);
    System.out.printf(
        "CPU per exchange: node %.2f ms, PostgreSQL %.2f ms (audit rows), clients %.2f ms"
            + " (after %d unmeasured exchanges)%n",
        nodeMillis,
        postgres.millisPer(postgresBefore, all),
        clients.millisPer(clientsBefore, all),
        warm);
    if (counts[1] > 0) {
      System.out.printf("(%d exchanges failed)%n", counts[1]);
    }
    if (queue.isEmpty()) {
      System.out.println("(ran out of upstream tokens: raise -Dbench.tokens)");
    }
    return new Measured(counts[0] / seconds, nodeMillis);
  }

  /**
   * {@link #THREADS} clients exchanging tokens for {@code time}, or until {@code tokens} gives
   * null: {succeeded, failed}.
   */
  private static long[] run(int port, Supplier<String> tokens, Duration time) throws Exception {
    Request exchanging =
        () -> {
          String token = tokens.get();
          return token == null ? 0 : exchange(port, token).status();
        };
    return clients(Collections.nCopies(THREADS, exchanging), time);
  }

  /** One request of a client: its HTTP status, or 0 when the client has nothing left to send. */
  private interface Request {
    int send();
  }

  /**
   * One thread per client, each sending its requests one after the other until {@code time} ends or
   * it has nothing left: {answered 200, answered otherwise}.
   */
  private static long[] clients(List<Request> clients, Duration time) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(clients.size());
    AtomicLong done = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long deadline = System.nanoTime() + time.toNanos();
    List<Future<?>> futures = new ArrayList<>();
    for (Request client : clients) {
      futures.add(
          pool.submit(
              () -> {
                int status;
                while (System.nanoTime() < deadline && (status = client.send()) != 0) {
                  (status == 200 ? done : failed).incrementAndGet();
                }
              }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    return new long[] {done.get(), failed.get()};
  }

  /**
   * Reads of the tenant by {@link #THREADS} clients that each reuse one service token, as an admin
   * client does for the token's lifetime: what the node spends per request with a service token
   * (its verification included) rather than with the operator credential.
   */
  private static double tenantReads(int port, long nodePid) throws Exception {
    List<Request> readers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Http.Reply reply = exchange(port, upstreamToken("reader-" + t));
      check(reply);
      Http http = new Http(port, reply.json().path("service_token").asText());
      readers.add(() -> http.get("/v1/tenants/bench").status());
    }
    return readRate(
        "tenant reads with a service token",
        "each reusing its token",
        readers,
        CpuMeter.of("node", nodePid));
  }

  /**
   * Reads of the tenant's key set by {@link #THREADS} clients: no credential, no database, the
   * answer built from memory. What Liberty's HTTP path and the clients on the same cores allow for
   * the cheapest request the node serves, the ceiling any exchange runs under on this machine.
   */
  private static double keySetReads(int port, long nodePid) throws Exception {
    List<Request> readers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Http http = new Http(port, null);
      readers.add(() -> http.get("/v1/tenants/bench/.well-known/jwks.json").status());
    }
    return readRate("key-set reads", "no credential", readers, CpuMeter.of("node", nodePid));
  }

  /** Warms {@code readers} up, measures them for {@link #DURATION}, prints and returns reads/s. */
  private static double readRate(String what, String how, List<Request> readers, CpuMeter node)
      throws Exception {
    long warm =
        WarmUp.untilSettled(
            what,
            node,
            time -> {
              long[] n = clients(readers, time);
              return n[0] + n[1];
            });
    Duration nodeBefore = node.total();
    long start = System.nanoTime();
    long[] counts = clients(readers, DURATION);
    double rate = counts[0] / ((System.nanoTime() - start) / 1e9);
    System.out.printf(
        "%s (%d client threads, %s): %,.0f/s, node CPU %.3f ms per read (after %d unmeasured"
            + " reads)%n",
        what, THREADS, how, rate, node.millisPer(nodeBefore, counts[0] + counts[1]), warm);
    if (counts[1] > 0) {
      System.out.printf("(%d reads failed)%n", counts[1]);
    }
    return rate;
  }

  private static Http.Reply exchange(int port, String token) {
    Http http = new Http(port, token);
    return http.send(
        http.request("/v1/tenants/bench/token/exchange")
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .header("Content-Type", "application/json"));
  }

  /** Single-thread verifications/s by the node's verifier, or by nimbus's default one. */
  private static double es256Verify(boolean asTheNode) throws Exception {
    ECKey key = new ECKeyGenerator(Curve.P_256).generate();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader(JWSAlgorithm.ES256), new JWTClaimsSet.Builder().subject("x").build());
    jwt.sign(new ECDSASigner(key));
    ECDSAVerifier verifier =
        asTheNode ? EcVerifiers.of(key.toECPublicKey()) : new ECDSAVerifier(key.toECPublicKey());
    return rate(() -> jwt.verify(verifier));
  }

  private static double ed25519Sign(boolean asTheNode) throws Exception {
    OctetKeyPair key = new OctetKeyPairGenerator(Curve.Ed25519).generate();
    JWSSigner signer = asTheNode ? new Ed25519JwsSigner(key) : new Ed25519Signer(key);
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .subject("x")
            .claim("perms", List.of("stream.publish:stream:a/b/*"))
            .build();
    return rate(() -> new SignedJWT(new JWSHeader(JWSAlgorithm.EdDSA), claims).sign(signer));
  }

  private interface Op {
    void run() throws Exception;
  }

  private static double rate(Op op) throws Exception {
    long warm = System.nanoTime() + CRYPTO_WARM_UP.toNanos();
    while (System.nanoTime() < warm) {
      op.run();
    }
    long n = 0;
    long start = System.nanoTime();
    long end = start + CRYPTO.toNanos();
    while (System.nanoTime() < end) {
      op.run();
      n++;
    }
    return n / ((System.nanoTime() - start) / 1e9);
  }
}
