package dev.controlplane.metadata.model;

import java.util.regex.Pattern;

/** The naming rule shared by tenants, namespaces, streams, caches and brokers. */
public final class Names {

  private static final Pattern NAME = Pattern.compile("^[a-z0-9][a-z0-9._-]{0,62}$");

  public static final String RULE =
      "1 to 63 characters of a-z 0-9 . _ - starting with a letter or digit";

  private Names() {}

  public static boolean isValid(String name) {
    return name != null && NAME.matcher(name).matches();
  }
}
