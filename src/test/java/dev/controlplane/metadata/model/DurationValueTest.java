package dev.controlplane.metadata.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationValueTest {

  @ParameterizedTest(name = "{0} = {1} ms")
  @CsvSource({
    "1ms, 1",
    "500ms, 500",
    "1s, 1000",
    "30s, 30000",
    "1m, 60000",
    "15m, 900000",
    "1h, 3600000",
    "2h, 7200000",
    "1d, 86400000",
    "7d, 604800000",
    "1w, 604800000",
    "2w, 1209600000",
    "0s, 0",
  })
  void everyUnitNormalisesToMilliseconds(String text, long millis) {
    DurationValue value = DurationValue.parse(text).orElseThrow();
    assertEquals(millis, value.millis());
    assertEquals(Duration.ofMillis(millis), value.toDuration());
  }

  @ParameterizedTest
  @ValueSource(strings = {"7d", "007d", "90m", "1w"})
  void durationKeepsTheTextAsWritten(String text) {
    assertThat(DurationValue.parse(text)).get().extracting(DurationValue::text).isEqualTo(text);
  }

  @Test
  void sevenDaysAndOneWeekAreTheSameLengthButKeepTheirOwnText() {
    DurationValue days = DurationValue.of("7d");
    DurationValue week = DurationValue.of("1w");
    assertEquals(days.millis(), week.millis());
    assertThat(days).isNotEqualTo(week);
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(
      strings = {
        "7",
        "d",
        "ms",
        "",
        " ",
        "7 d",
        " 7d",
        "7d ",
        "-1s",
        "+1s",
        "1.5h",
        "1,5h",
        "7D",
        "7MS",
        "7S",
        "7H",
        "7W",
        "7dd",
        "7days",
        "7sec",
        "1h30m",
        "7y",
        "7us",
        "7ns",
        "1e3s",
        "0x10s",
        "７d",
        "1234567890123456ms", // 16 digits
        "999999999999999w", // overflows a long
        "15250284453w", // first week count that overflows
        "106751991167301d" // overflows a long
      })
  void invalidDurationIsEmpty(String text) {
    assertThat(DurationValue.parse(text)).isEmpty();
  }

  @ParameterizedTest
  @NullSource
  void nullDurationIsEmpty(String text) {
    assertThat(DurationValue.parse(text)).isEmpty();
  }

  @Test
  void largestWeekCountThatFitsInALongIsAccepted() {
    assertEquals(15_250_284_452L * 604_800_000L, DurationValue.of("15250284452w").millis());
  }

  @Test
  void theLargestDayCountTheGrammarNamesIsAcceptedAndTheNextIsNot() {
    assertThat(DurationValue.GRAMMAR).contains("106751991167d at most");
    assertThat(DurationValue.parse("106751991167d")).isPresent();
    assertThat(DurationValue.parse("106751991168d")).isEmpty();
  }

  @Test
  void fifteenDigitMillisecondsAreAccepted() {
    assertEquals(999_999_999_999_999L, DurationValue.of("999999999999999ms").millis());
  }

  @Test
  void ofRejectsAnInvalidDuration() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DurationValue.of("7days"));
    assertThat(e).hasMessageContaining("7days");
  }
}
