package dev.controlplane.auth;

import java.time.Instant;

/**
 * A tenant signing key as the JWKS and the admin API see it (never the private part).
 *
 * @param state {@code active} (signs), {@code next} (published, signs from {@code activateAfter}),
 *     {@code passive} (verifies tokens it signed until {@code retireAfter}) or {@code retired}
 */
public record SigningKey(
    String tenant,
    String kid,
    String state,
    String publicX,
    Instant activateAfter,
    Instant retireAfter) {}
