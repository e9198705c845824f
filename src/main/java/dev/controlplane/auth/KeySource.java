package dev.controlplane.auth;

import com.nimbusds.jose.jwk.JWKSet;
import java.util.concurrent.CompletableFuture;

/** Where an issuer's key set comes from: its key server ({@link KeyFetcher}). */
@FunctionalInterface
interface KeySource {

  /** Starts fetching the issuer's key set; the future fails with the reason it could not. */
  CompletableFuture<JWKSet> fetchAsync(IssuerRecord issuer);
}
