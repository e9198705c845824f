package dev.controlplane.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.junit.jupiter.api.Test;

/**
 * One row whose value the database refuses failed the whole batch of exchange records, three times,
 * and then every row of it was dropped: other callers' records with it. Rows are now inserted one
 * by one after such a failure. The database here answers as PostgreSQL does (checked against it: a
 * NUL in a text parameter fails the batch with SQLSTATE 22021 and stores none of its rows).
 */
class ExchangeAuditBatchTest {

  private final List<String> stored = new ArrayList<>();
  private final AtomicLong dropped = new AtomicLong();
  private int batchesSent;

  @Test
  void aRowTheDatabaseRefusesIsDroppedAloneAndTheOthersOfItsBatchAreStored() {
    ExchangeAudit audit = audit();
    audit.insertOrDrop(List.of(record("victim-1"), record("evil\u0000agent"), record("victim-2")));
    assertThat(stored).containsExactly("victim-1", "victim-2");
    assertThat(dropped.get()).isEqualTo(1);
    // The batch once, then each row once: no retry of a value that can never be stored.
    assertThat(batchesSent).isEqualTo(4);
  }

  @Test
  void aBatchTheDatabaseTakesIsSentOnce() {
    ExchangeAudit audit = audit();
    audit.insertOrDrop(List.of(record("a"), record("b")));
    assertThat(stored).containsExactly("a", "b");
    assertThat(dropped.get()).isZero();
    assertThat(batchesSent).isEqualTo(1);
  }

  private static AuditRecord record(String userAgent) {
    return new AuditRecord(
        Instant.now(),
        AuditEntry.of("token", "token.exchange", "exchange", "acme"),
        AuditRecord.REFUSED,
        "invalid_token",
        new Actor(Actor.ANONYMOUS, Actor.ANONYMOUS, "127.0.0.1", userAgent),
        "cp1",
        null);
  }

  private ExchangeAudit audit() {
    ExchangeAudit audit = new ExchangeAudit();
    audit.dataSource = proxy(DataSource.class, (m, args) -> connection());
    Counter counter =
        proxy(
            Counter.class,
            (m, args) -> {
              if (m.equals("inc")) {
                dropped.addAndGet(args == null ? 1 : (Long) args[0]);
              }
              return null;
            });
    audit.registry = proxy(MetricRegistry.class, (m, args) -> counter);
    audit.init();
    return audit;
  }

  private Connection connection() {
    return proxy(Connection.class, (m, args) -> m.equals("prepareStatement") ? statement() : null);
  }

  /** Binds rows, and on executeBatch stores all of them or, if one holds a NUL, none. */
  private PreparedStatement statement() {
    List<List<Object>> rows = new ArrayList<>();
    List<Object> row = new ArrayList<>();
    return proxy(
        PreparedStatement.class,
        (m, args) -> {
          switch (m) {
            case "addBatch" -> {
              rows.add(new ArrayList<>(row));
              row.clear();
            }
            case "executeBatch" -> {
              batchesSent++;
              boolean refused =
                  rows.stream()
                      .flatMap(List::stream)
                      .anyMatch(v -> v instanceof String s && s.indexOf('\u0000') >= 0);
              if (refused) {
                throw new BatchUpdateException(
                    "ERROR: invalid byte sequence for encoding \"UTF8\": 0x00",
                    "22021",
                    new int[0]);
              }
              // Each row is known here by its user agent, the one parameter the tests vary.
              rows.forEach(
                  r ->
                      r.stream()
                          .filter(v -> v instanceof String s && s.matches("victim-\\d|[ab]"))
                          .forEach(v -> stored.add((String) v)));
              return new int[rows.size()];
            }
            default -> {
              if (m.startsWith("set") && args != null && args.length == 2) {
                row.add(args[1]);
              }
            }
          }
          return null;
        });
  }

  private interface Handler {
    Object handle(String method, Object[] args) throws Exception;
  }

  private static <T> T proxy(Class<T> type, Handler handler) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (p, method, args) -> handler.handle(method.getName(), args)));
  }
}
