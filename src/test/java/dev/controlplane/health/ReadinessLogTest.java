package dev.controlplane.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReadinessLogTest {

  private static final String NO_LEADER = "no leader is known";
  private static final String NO_DATABASE = "the database does not answer";

  private final Logger logger = Logger.getLogger(ReadinessLog.class.getName());
  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord r) {
          logged.add(r.getLevel() + " " + r.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private final ReadinessLog readiness = new ReadinessLog();

  @BeforeEach
  void listen() {
    logger.addHandler(capture);
  }

  @AfterEach
  void release() {
    logger.removeHandler(capture);
  }

  @Test
  void aNormalStartLogsNothing() {
    readiness.observe(List.of(ReadinessLog.STARTING));
    readiness.observe(List.of(ReadinessLog.STARTING));
    readiness.observe(List.of());
    readiness.observe(List.of());

    assertThat(logged).isEmpty();
  }

  @Test
  void eachChangeIsLoggedOnceWithItsReasonsHoweverOftenTheNodeIsProbed() {
    readiness.observe(List.of());
    for (int probe = 0; probe < 100; probe++) {
      readiness.observe(List.of(NO_LEADER));
    }
    readiness.observe(List.of(NO_DATABASE, NO_LEADER));
    readiness.observe(List.of(NO_DATABASE, NO_LEADER));
    for (int probe = 0; probe < 100; probe++) {
      readiness.observe(List.of());
    }

    assertThat(logged)
        .containsExactly(
            "WARNING this node is not ready, /health/ready answers 503 until it is: " + NO_LEADER,
            "WARNING this node is not ready, /health/ready answers 503 until it is: "
                + NO_DATABASE
                + "; "
                + NO_LEADER,
            "INFO this node is ready again: /health/ready answers 200");
  }

  @Test
  void aNodeThatStartsWithoutALeaderSaysSo() {
    readiness.observe(List.of(ReadinessLog.STARTING));
    readiness.observe(List.of(NO_LEADER));
    readiness.observe(List.of());

    assertThat(logged).hasSize(2);
    assertThat(logged.get(0)).startsWith("WARNING").endsWith(NO_LEADER);
    assertThat(logged.get(1)).startsWith("INFO this node is ready again");
  }
}
