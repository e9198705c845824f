package dev.controlplane.rbac;

import dev.controlplane.metadata.model.Names;
import dev.controlplane.metadata.model.Text;
import java.util.regex.Pattern;

/**
 * The RBAC subjects of decisions.md: principal ids (64 lowercase hex), {@code group:<name>} and
 * {@code role:<name>}.
 *
 * <p>Group names are the identity provider's, not ours: Keycloak sends full paths ({@code
 * /org/admins}), Azure AD object ids, others {@code Ops Team}. A group subject is therefore {@code
 * group:} followed by any text of 1 to {@link #MAX_GROUP_SUBJECT} characters without control
 * characters (the issuer's groups prefix, up to {@link #MAX_GROUPS_PREFIX}, and the IdP's name, up
 * to {@link #MAX_GROUP_NAME}). Roles are ours and follow the resource naming rule.
 */
public final class Subjects {

  public static final String GROUP = "group:";
  public static final String ROLE = "role:";

  /** Longest group name taken from a token. */
  public static final int MAX_GROUP_NAME = 256;

  /** Longest {@code groups_prefix} of an issuer. */
  public static final int MAX_GROUPS_PREFIX = 64;

  /** Longest text after {@code group:} in a subject: a prefix and a name. */
  public static final int MAX_GROUP_SUBJECT = MAX_GROUPS_PREFIX + MAX_GROUP_NAME;

  public static final String GROUP_RULE =
      "group:<name>, the name 1 to " + MAX_GROUP_SUBJECT + " characters without control characters";

  private static final Pattern PRINCIPAL_ID = Pattern.compile("^[0-9a-f]{64}$");

  private Subjects() {}

  public static boolean isPrincipalId(String subject) {
    return subject != null && PRINCIPAL_ID.matcher(subject).matches();
  }

  public static boolean isGroup(String subject) {
    return subject != null
        && subject.startsWith(GROUP)
        && isText(subject.substring(GROUP.length()), MAX_GROUP_SUBJECT);
  }

  public static boolean isRole(String subject) {
    return subject != null
        && subject.startsWith(ROLE)
        && Names.isValid(subject.substring(ROLE.length()));
  }

  /** Whether an IdP's group name can be used: 1 to 256 characters, no control characters. */
  public static boolean isGroupName(String name) {
    return isText(name, MAX_GROUP_NAME);
  }

  /** Whether a groups prefix can be used: at most 64 characters, no control characters. */
  public static boolean isGroupsPrefix(String prefix) {
    return prefix != null && (prefix.isEmpty() || isText(prefix, MAX_GROUPS_PREFIX));
  }

  /**
   * The subject of group {@code name} (without {@code group:}) of an issuer with {@code prefix}.
   */
  public static String group(String prefix, String name) {
    return GROUP + prefix + name;
  }

  /** Text of 1 to {@code max} characters, one line ({@link Text#isLine}). */
  static boolean isText(String text, int max) {
    return text != null && !text.isEmpty() && text.length() <= max && Text.isLine(text);
  }
}
