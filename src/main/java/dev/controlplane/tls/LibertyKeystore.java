package dev.controlplane.tls;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;

/**
 * The HTTP listener's keystore. Liberty 26 reads only keystore types of the JDK (no PEM), so the
 * service writes the PEM identity into a PKCS12 file that {@code server.xml}'s {@code keyStore}
 * polls ({@code updateTrigger="polled"}) and reloads when it changes. Where the file is and its
 * password are chosen per start by {@code liberty/server.env} and passed in the environment.
 */
public final class LibertyKeystore {

  static final String PATH_ENV = "CONTROLPLANE_TLS_KEYSTORE";
  static final String PASSWORD_ENV = "CONTROLPLANE_TLS_KEYSTORE_PASSWORD";
  static final String ALIAS = "controlplane";

  private final Path file;
  private final char[] password;

  LibertyKeystore(Path file, char[] password) {
    this.file = file;
    this.password = password;
  }

  /** The keystore Liberty's server.env set up; empty when not running under Liberty's script. */
  static Optional<LibertyKeystore> fromEnvironment() {
    String path = System.getenv(PATH_ENV);
    String password = System.getenv(PASSWORD_ENV);
    if (path == null || path.isBlank() || password == null || password.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new LibertyKeystore(Path.of(path), password.toCharArray()));
  }

  Path file() {
    return file;
  }

  /** Writes a new file next to the old one and moves it over, so Liberty never reads half. */
  void write(PemFiles.Identity identity) throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry(ALIAS, identity.key(), password, identity.chain());
    Files.createDirectories(file.getParent());
    Path temp = Files.createTempFile(file.getParent(), ".controlplane-tls", ".p12");
    try {
      ownerOnly(temp);
      try (OutputStream out = Files.newOutputStream(temp)) {
        store.store(out, password);
      }
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static void ownerOnly(Path path) throws IOException {
    try {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException notPosix) {
      // Windows: the directory's ACL applies.
    }
  }
}
