package dev.controlplane.metadata.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LogBoundsTest {

  private final LogBounds bounds = new LogBounds(100, 40);

  @Test
  void versionJustBeforeOldestRetainedIsCovered() {
    assertTrue(bounds.covers(39));
  }

  @Test
  void versionTwoBeforeOldestRetainedIsNotCovered() {
    assertFalse(bounds.covers(38));
  }

  @Test
  void oldestRetainedVersionIsCovered() {
    assertTrue(bounds.covers(40));
  }

  @Test
  void headIsCovered() {
    assertTrue(bounds.covers(100));
  }

  @Test
  void versionAfterHeadIsNotCovered() {
    assertFalse(bounds.covers(101));
  }

  @Test
  void oldestServableIsOneBeforeOldestRetained() {
    assertEquals(39, bounds.oldestServable());
    assertTrue(bounds.covers(bounds.oldestServable()));
    assertFalse(bounds.covers(bounds.oldestServable() - 1));
  }

  @Test
  void emptyLogCoversOnlyVersionZero() {
    LogBounds empty = new LogBounds(0, 1);
    assertTrue(empty.covers(0));
    assertFalse(empty.covers(1));
    assertFalse(empty.covers(-1));
  }

  /** uint64 versions above Long.MAX_VALUE arrive negative; they are far ahead, not far behind. */
  @Test
  void aVersionAboveTheSignedRangeIsAheadAndPrintedAsSent() {
    assertFalse(bounds.covers(-1));
    assertThat(bounds.outOfRange(-1).getMessage())
        .isEqualTo("version 18446744073709551615 is ahead of the latest version 100");
    assertThat(bounds.outOfRange(101).getMessage()).contains("is ahead of the latest version 100");
    assertThat(bounds.outOfRange(38).getMessage())
        .contains("version 38 is older than the retained history (oldest servable version 39)");
  }
}
