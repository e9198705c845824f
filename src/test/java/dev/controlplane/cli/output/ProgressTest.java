package dev.controlplane.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressTest {

  @Test
  void alwaysReportsEveryTenthOfTheWorkAndAFinalLine() {
    StringWriter text = new StringWriter();
    try (Progress progress =
        Progress.start(new PrintWriter(text), Progress.Mode.ALWAYS, "apply", 1000)) {
      for (int i = 0; i < 1000; i++) {
        progress.add(1);
      }
    }
    var lines = text.toString().lines().toList();
    assertThat(lines).hasSize(10);
    assertThat(lines.get(0)).startsWith("apply: 100/1000 (10%)");
    assertThat(lines.get(8)).startsWith("apply: 900/1000 (90%)");
    assertThat(lines.get(9)).startsWith("apply: 1000/1000 (100%)").doesNotContain("left");
  }

  @Test
  void eachTenthIsReportedWithTheCountThatReachedItWhileWorkersAddAtOnce() throws Exception {
    StringWriter text = new StringWriter();
    int threads = 4;
    int each = 25_000;
    try (Progress progress =
        Progress.start(new PrintWriter(text), Progress.Mode.ALWAYS, "apply", threads * each)) {
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      List<Thread> workers = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Thread worker =
            new Thread(
                () -> {
                  try {
                    go.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  for (int i = 0; i < each; i++) {
                    progress.add(1);
                  }
                });
        worker.start();
        workers.add(worker);
      }
      go.countDown();
      for (Thread worker : workers) {
        worker.join();
      }
    }
    var lines = text.toString().lines().toList();
    assertThat(lines).hasSize(10);
    for (int tenth = 1; tenth < 10; tenth++) {
      assertThat(lines.get(tenth - 1))
          .startsWith("apply: " + tenth * 10_000 + "/100000 (" + tenth * 10 + "%)");
    }
  }

  @Test
  void neverPrintsNothing() {
    StringWriter text = new StringWriter();
    try (Progress progress =
        Progress.start(new PrintWriter(text), Progress.Mode.NEVER, "apply", 10)) {
      progress.add(10);
    }
    assertThat(text.toString()).isEmpty();
  }
}
