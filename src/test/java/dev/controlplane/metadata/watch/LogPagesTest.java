package dev.controlplane.metadata.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.model.Namespace;
import dev.controlplane.metadata.model.UpdateType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LogPagesTest {

  /** A log holding versions {@code from..to}, counting reads. */
  private static final class Log implements LogPages.Reader {
    long from = 1;
    long to;
    final List<Long> readsAfter = new ArrayList<>();

    Log(long to) {
      this.to = to;
    }

    @Override
    public List<MetadataUpdate> readAfter(long after, int limit) {
      readsAfter.add(after);
      return LongStream.rangeClosed(Math.max(after + 1, from), to)
          .limit(limit)
          .mapToObj(LogPagesTest::update)
          .toList();
    }
  }

  private static MetadataUpdate update(long version) {
    return new MetadataUpdate(
        version, UpdateType.CREATE, new Namespace("acme", "ns" + version, "", null, version), null);
  }

  private final AtomicInteger counted = new AtomicInteger();

  @Test
  void watchersCatchingUpThroughOnePageReadTheTableOnce() {
    Log log = new Log(1_000);
    LogPages pages = new LogPages(log, 100, 4, counted::incrementAndGet);

    for (long version = 101; version <= 200; version++) {
      List<MetadataUpdate> page = pages.containing(version);
      assertThat(LogPages.find(page, version).version()).isEqualTo(version);
    }
    for (int watcher = 0; watcher < 50; watcher++) {
      pages.containing(150);
    }

    assertThat(log.readsAfter).containsExactly(100L);
    assertThat(counted).hasValue(1);
  }

  @Test
  void aPageReadBeforeItsEndWasCommittedIsReadAgainForTheVersionsPastIt() {
    Log log = new Log(130);
    LogPages pages = new LogPages(log, 100, 4, counted::incrementAndGet);
    assertThat(pages.containing(120)).hasSize(30);

    log.to = 180;
    List<MetadataUpdate> page = pages.containing(150);

    assertThat(LogPages.find(page, 150).version()).isEqualTo(150);
    assertThat(page).hasSize(80);
    pages.containing(110);
    assertThat(log.readsAfter).containsExactly(100L, 100L);
  }

  @Test
  void onlyTheMostRecentlyReadPagesAreKept() {
    Log log = new Log(10_000);
    LogPages pages = new LogPages(log, 100, 4, counted::incrementAndGet);

    for (long version = 1; version <= 10_000; version += 100) {
      pages.containing(version);
    }
    assertThat(pages.pagesKept()).isEqualTo(4);

    pages.containing(9_950); // kept
    pages.containing(50); // read long ago: read again
    assertThat(log.readsAfter).hasSize(101).endsWith(0L);
  }

  @Test
  void aVersionTheRetentionTrimmedIsNotFoundAndItsPageIsNotKept() {
    Log log = new Log(300);
    log.from = 131;
    LogPages pages = new LogPages(log, 100, 4, counted::incrementAndGet);

    List<MetadataUpdate> page = pages.containing(120);

    assertThat(LogPages.find(page, 120)).isNull();
    assertThat(page.get(0).version()).isEqualTo(131);
    assertThat(LogPages.find(page, 140).version()).isEqualTo(140);
    assertThat(pages.pagesKept()).isZero();
  }

  @Test
  void clearingForgetsEveryPage() {
    Log log = new Log(300);
    LogPages pages = new LogPages(log, 100, 4, counted::incrementAndGet);
    pages.containing(50);
    pages.containing(150);

    pages.clear();
    pages.containing(50);

    assertThat(log.readsAfter).containsExactly(0L, 100L, 0L);
  }

  @Test
  void findIgnoresVersionsOutsideThePage() {
    List<MetadataUpdate> page = List.of(update(11), update(12), update(13));

    assertThat(LogPages.find(page, 10)).isNull();
    assertThat(LogPages.find(page, 12).version()).isEqualTo(12);
    assertThat(LogPages.find(page, 14)).isNull();
    assertThat(LogPages.find(null, 12)).isNull();
    assertThat(LogPages.find(List.of(), 12)).isNull();
  }
}
