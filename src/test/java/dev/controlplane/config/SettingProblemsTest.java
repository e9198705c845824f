package dev.controlplane.config;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SettingProblemsTest {

  private static Runnable failing(String message) {
    return () -> {
      throw new InvalidSettingException(message);
    };
  }

  @Test
  void settingsThatAllParseReportNothing() {
    SettingProblems problems = new SettingProblems();
    problems.check(() -> Settings.integer("service.controlplane.watch.window", "10", 1, 100));
    assertThatCode(problems::throwIfAny).doesNotThrowAnyException();
  }

  @Test
  void oneInvalidSettingIsReportedAsItsOwnMessage() {
    SettingProblems problems = new SettingProblems();
    problems.check(() -> {});
    problems.check(() -> Settings.integer("service.controlplane.watch.window", "ten", 1, 100));
    assertThatThrownBy(problems::throwIfAny)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("SERVICE_CONTROLPLANE_WATCH_WINDOW = 'ten'")
        .hasMessageEndingWith("is not an integer");
  }

  @Test
  void everyInvalidSettingIsNamedOnceInTheOrderFound() {
    SettingProblems problems = new SettingProblems();
    problems.check(failing("A = 'x' is not an integer"));
    problems.check(() -> {});
    problems.check(failing("B = '5 seconds' is not a duration"));
    problems.check(failing("A = 'x' is not an integer"));
    assertThatThrownBy(problems::throwIfAny)
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "2 settings are invalid: A = 'x' is not an integer; B = '5 seconds' is not a duration");
  }

  @Test
  void anotherFailureThanAnInvalidSettingIsNotSwallowed() {
    SettingProblems problems = new SettingProblems();
    assertThatThrownBy(
            () ->
                problems.check(
                    () -> {
                      throw new IllegalStateException("a bug, not a setting");
                    }))
        .isInstanceOf(IllegalStateException.class);
  }
}
