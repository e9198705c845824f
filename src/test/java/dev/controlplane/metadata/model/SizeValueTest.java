package dev.controlplane.metadata.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class SizeValueTest {

  @ParameterizedTest(name = "{0} = {1} bytes")
  @CsvSource({
    "0B, 0",
    "1B, 1",
    "512B, 512",
    "1KB, 1000",
    "1MB, 1000000",
    "1GB, 1000000000",
    "10GB, 10000000000",
    "1TB, 1000000000000",
    "1KiB, 1024",
    "1MiB, 1048576",
    "512MiB, 536870912",
    "1GiB, 1073741824",
    "10GiB, 10737418240",
    "1TiB, 1099511627776",
  })
  void everyUnitNormalisesToBytes(String text, long bytes) {
    SizeValue value = SizeValue.parse(text).orElseThrow();
    assertEquals(bytes, value.bytes());
    assertEquals(text, value.text());
  }

  @Test
  void theLargestTebibyteCountTheGrammarNamesIsAcceptedAndTheNextIsNot() {
    org.assertj.core.api.Assertions.assertThat(SizeValue.GRAMMAR).contains("8388607TiB at most");
    org.assertj.core.api.Assertions.assertThat(SizeValue.parse("8388607TiB")).isPresent();
    org.assertj.core.api.Assertions.assertThat(SizeValue.parse("8388608TiB")).isEmpty();
  }

  @Test
  void decimalAndBinaryKilobytesDiffer() {
    assertThat(SizeValue.parse("1KB").orElseThrow().bytes()).isEqualTo(1000L);
    assertThat(SizeValue.parse("1KiB").orElseThrow().bytes()).isEqualTo(1024L);
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(
      strings = {
        "10",
        "B",
        "GB",
        "",
        "1kb",
        "1kB",
        "1Kb",
        "1KIB",
        "1kib",
        "1Kib",
        "1b",
        "1iB",
        "1K",
        "1G",
        "1PB",
        "1PiB",
        "10 GB",
        " 10GB",
        "10GB ",
        "-1B",
        "+1B",
        "1.5GB",
        "1,5GB",
        "10gb",
        "10GBs",
        "1234567890123456B", // 16 digits
        "999999999999999TiB", // overflows a long
        "8388608TiB" // 2^23 TiB = 2^63 bytes: one past Long.MAX_VALUE
      })
  void invalidSizeIsEmpty(String text) {
    assertThat(SizeValue.parse(text)).isEmpty();
  }

  @ParameterizedTest
  @NullSource
  void nullSizeIsEmpty(String text) {
    assertThat(SizeValue.parse(text)).isEmpty();
  }

  @Test
  void largestTebibyteCountThatFitsInALongIsAccepted() {
    assertEquals(8_388_607L << 40, SizeValue.parse("8388607TiB").orElseThrow().bytes());
  }
}
