package dev.controlplane.metadata.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HighestSeenMemoryTest {

  private static final UUID DATABASE = UUID.randomUUID();

  @TempDir Path dir;

  @Test
  void aVersionRememberedIsRecalledByTheNextStartOnTheSameDatabase() {
    Path file = dir.resolve("node").resolve("highest-seen-version");
    new HighestSeenMemory(file, DATABASE).remember(1234);

    assertThat(new HighestSeenMemory(file, DATABASE).recalled()).isEqualTo(1234);
    assertThat(file.resolveSibling("highest-seen-version.next")).doesNotExist();
  }

  @Test
  void anotherDatabaseRecallsNothing() {
    Path file = dir.resolve("highest-seen-version");
    new HighestSeenMemory(file, DATABASE).remember(1234);

    assertThat(new HighestSeenMemory(file, UUID.randomUUID()).recalled()).isZero();
  }

  @Test
  void aMissingOrMalformedFileRecallsNothing() throws Exception {
    Path file = dir.resolve("highest-seen-version");
    assertThat(new HighestSeenMemory(file, DATABASE).recalled()).isZero();
    for (String text : new String[] {"", "garbage", DATABASE + " many", DATABASE + " 1 2", "x 5"}) {
      Files.writeString(file, text);
      assertThat(new HighestSeenMemory(file, DATABASE).recalled()).as(text).isZero();
    }
  }

  @Test
  void aFileThatCannotBeWrittenCostsOnlyTheMemory() throws Exception {
    Path notADirectory = Files.createFile(dir.resolve("plain-file"));
    HighestSeenMemory memory = new HighestSeenMemory(notADirectory.resolve("x"), DATABASE);

    memory.remember(7);
    memory.remember(8);

    assertThat(memory.recalled()).isZero();
  }
}
