package dev.controlplane.metadata.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.controlplane.metadata.model.MetadataUpdate;
import dev.controlplane.metadata.snapshot.MetadataImage;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HeadImageTest {

  private final AtomicInteger replaced = new AtomicInteger();
  private final HeadImage head = new HeadImage(() -> 3, replaced::incrementAndGet);

  private static MetadataImage imageAt(long version) {
    MetadataImage image = MetadataImage.empty();
    for (MetadataUpdate u : TestHub.updates(1, version)) {
      image = image.replay(u);
    }
    return image;
  }

  @Test
  void aCommittedBatchIsTakenOnlyWhenItStartsRightAfterTheHead() {
    assertThat(head.takeCommitted(TestHub.updates(2, 3), imageAt(3))).isFalse();
    assertThat(head.version()).isZero();
    assertThat(head.takeCommitted(TestHub.updates(1, 2), imageAt(2))).isTrue();
    assertThat(head.version()).isEqualTo(2);
    assertThat(head.takeCommitted(TestHub.updates(1, 2), imageAt(2)))
        .as("the same batch again, read from the log meanwhile")
        .isFalse();
    assertThat(head.fromWindow(1).version()).isEqualTo(1);
  }

  @Test
  void updatesReadFromTheLogAdvanceOnlyFromTheNextVersionAndTheWindowKeepsTheNewest() {
    head.append(TestHub.updates(1, 2));
    head.append(List.of(TestHub.update(2), TestHub.update(4)));
    assertThat(head.version()).as("2 again counts once, 4 would leave a gap").isEqualTo(2);
    head.append(TestHub.updates(3, 6));
    assertThat(head.version()).isEqualTo(6);
    assertThat(head.image().version()).isEqualTo(6);
    assertThat(head.fromWindow(3)).as("beyond the window of 3").isNull();
    assertThat(head.fromWindow(4)).isNotNull();
    assertThat(head.fromWindow(6)).isNotNull();
  }

  @Test
  void aReplacedImageDropsTheWindowAndTheHighestVersionSeenNeverFalls() {
    head.append(TestHub.updates(1, 5));
    head.replace(imageAt(2));
    assertThat(head.version()).isEqualTo(2);
    assertThat(head.fromWindow(2)).isNull();
    assertThat(replaced).hasValue(1);
    assertThat(head.highestSeen()).isEqualTo(5);
    assertThat(head.recall(4)).isFalse();
    assertThat(head.recall(9)).isTrue();
    assertThat(head.highestSeen()).isEqualTo(9);
  }

  @Test
  void anImageLoadedFromTheTablesReplacesTheHeldOneOnlyIfNothingAdvancedItMeanwhile() {
    head.append(TestHub.updates(1, 2));
    MetadataImage held = head.image();
    head.append(TestHub.updates(3, 3));
    assertThat(head.replaceIfStill(held, imageAt(2))).isFalse();
    assertThat(head.version()).isEqualTo(3);
    assertThat(head.replaceIfStill(head.image(), imageAt(3))).isTrue();
    assertThat(replaced).hasValue(1);
  }
}
