package dev.controlplane.auth;

import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.error.ControlPlaneException.FieldError;
import dev.controlplane.rbac.Subjects;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A tenant's trusted upstream issuer (spec section 2, table {@code idp_issuers}).
 *
 * @param groupsPrefix what this issuer's group names are prefixed with in RBAC: its group {@code
 *     admins} is the subject {@code group:<prefix>admins}. Empty by default; two issuers of a
 *     tenant that both map groups need prefixes of which neither begins the other ({@link
 *     IssuerAdmin}).
 */
public record IssuerRecord(
    String issuer,
    List<String> audiences,
    String discoveryUrl,
    String jwksUrl,
    String subjectClaim,
    String groupsClaim,
    String groupsPrefix) {

  public IssuerRecord {
    audiences = audiences == null ? List.of() : List.copyOf(audiences);
    subjectClaim = subjectClaim == null || subjectClaim.isBlank() ? "sub" : subjectClaim;
    groupsClaim = groupsClaim == null || groupsClaim.isBlank() ? null : groupsClaim;
    discoveryUrl = discoveryUrl == null || discoveryUrl.isBlank() ? null : discoveryUrl;
    jwksUrl = jwksUrl == null || jwksUrl.isBlank() ? null : jwksUrl;
    groupsPrefix = groupsPrefix == null ? "" : groupsPrefix;
  }

  /** Whether this issuer's tokens contribute groups. */
  public boolean mapsGroups() {
    return groupsClaim != null;
  }

  /** Refuses a record that could never validate a token, or whose key URLs we would not fetch. */
  public IssuerRecord validated(boolean allowHttp, AddressPolicy addresses, String fieldPrefix) {
    List<FieldError> errors = new ArrayList<>();
    if (issuer == null || issuer.isBlank() || issuer.length() > 2048 || !printable(issuer)) {
      errors.add(
          new FieldError(
              fieldPrefix + "issuer", "is required (at most 2048 printable characters)"));
    } else if (issuer.indexOf('|') >= 0) {
      // The principal id hashes iss + "|" + sub; subjects may contain '|', issuers must not.
      errors.add(
          new FieldError(
              fieldPrefix + "issuer",
              "must not contain '|' (it separates issuer and subject in principal ids; a URL"
                  + " writes it as %7C)"));
    }
    if (audiences.isEmpty()
        || audiences.size() > 32
        || audiences.stream().anyMatch(a -> a == null || a.isBlank() || !printable(a))) {
      errors.add(
          new FieldError(fieldPrefix + "audiences", "1 to 32 non-empty audiences are required"));
    }
    if (discoveryUrl == null && jwksUrl == null) {
      errors.add(
          new FieldError(fieldPrefix + "jwks_url", "either jwks_url or discovery_url is required"));
    }
    checkUrl(discoveryUrl, allowHttp, addresses, fieldPrefix + "discovery_url", errors);
    checkUrl(jwksUrl, allowHttp, addresses, fieldPrefix + "jwks_url", errors);
    if (!printable(subjectClaim) || (groupsClaim != null && !printable(groupsClaim))) {
      errors.add(new FieldError(fieldPrefix + "claim_mappings", "claim names must be printable"));
    }
    if (!Subjects.isGroupsPrefix(groupsPrefix)) {
      errors.add(
          new FieldError(
              fieldPrefix + "claim_mappings.groups_prefix",
              "at most " + Subjects.MAX_GROUPS_PREFIX + " characters without control characters"));
    }
    if (!errors.isEmpty()) {
      throw ControlPlaneException.validation(errors);
    }
    return this;
  }

  static void checkUrl(
      String url,
      boolean allowHttp,
      AddressPolicy addresses,
      String field,
      List<FieldError> errors) {
    if (url == null) {
      return;
    }
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!uri.isAbsolute() || uri.getHost() == null || uri.getUserInfo() != null) {
        errors.add(new FieldError(field, "must be an absolute URL with a host"));
      } else if (!scheme.equals("https") && !(allowHttp && scheme.equals("http"))) {
        errors.add(
            new FieldError(
                field,
                allowHttp
                    ? "must be http or https"
                    : "must be https (SERVICE_CONTROLPLANE_OIDC_ALLOW_HTTP is off)"));
      } else {
        addresses
            .refusalWithoutLookup(uri.getHost())
            .ifPresent(why -> errors.add(new FieldError(field, "must not point to " + why)));
      }
    } catch (java.net.URISyntaxException e) {
      errors.add(new FieldError(field, "is not a URL"));
    }
  }

  private static boolean printable(String s) {
    return s != null && s.chars().allMatch(c -> c >= 0x20 && c != 0x7f);
  }
}
