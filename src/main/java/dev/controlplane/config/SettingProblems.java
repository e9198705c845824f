package dev.controlplane.config;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Collects what is wrong with the settings, so that a start that cannot go on names every invalid
 * setting at once, not only the first: an operator fixes them all before the next attempt, as
 * {@code kubectl} lists every invalid field of a manifest. A check that depends on a setting
 * already reported repeats its message, which is kept once.
 */
public final class SettingProblems {

  private final Set<String> problems = new LinkedHashSet<>();

  /** Runs {@code check}, keeping its {@link InvalidSettingException} instead of throwing it. */
  public void check(Runnable check) {
    try {
      check.run();
    } catch (InvalidSettingException e) {
      problems.add(e.getMessage());
    }
  }

  /** Keeps a problem found elsewhere (the configuration file's unusable entries). */
  public void add(String problem) {
    problems.add(problem);
  }

  /** One exception naming every problem found, in the order found; nothing when there is none. */
  public void throwIfAny() {
    if (problems.size() == 1) {
      throw new InvalidSettingException(problems.iterator().next());
    }
    if (!problems.isEmpty()) {
      throw new InvalidSettingException(
          problems.size() + " settings are invalid: " + String.join("; ", problems));
    }
  }
}
