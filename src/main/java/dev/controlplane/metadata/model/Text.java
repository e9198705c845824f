package dev.controlplane.metadata.model;

/**
 * Which free text the service accepts. Control characters garble logs and listings, and PostgreSQL
 * cannot store NUL at all: a value holding one failed only when its write reached the database. An
 * unpaired surrogate has no UTF-8 form, so it would be stored as {@code ?}: changed without a word.
 * Both are refused where the text comes in, naming its field.
 */
public final class Text {

  /** The rule of {@link #isLine}, as error messages state it. */
  public static final String LINE_RULE = "text without control characters or unpaired surrogates";

  /** The rule of {@link #isLines}, as error messages state it. */
  public static final String LINES_RULE =
      "text without unpaired surrogates or control characters other than tab and line breaks";

  private Text() {}

  /** One line: no control character (Unicode Cc) and no unpaired surrogate. */
  public static boolean isLine(String text) {
    return text != null && accepted(text, false);
  }

  /** Free text that may span lines: tab, CR and LF are the only control characters allowed. */
  public static boolean isLines(String text) {
    return text != null && accepted(text, true);
  }

  /**
   * {@code text} made one line by replacing what {@link #isLine} refuses with U+FFFD: for what the
   * service records but does not take from a request's fields (a client's {@code User-Agent}),
   * where refusing the request would be wrong and storing the text as sent is impossible.
   */
  public static String asLine(String text) {
    if (text == null || isLine(text)) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        out.append(c).append(text.charAt(++i));
      } else if (Character.isSurrogate(c) || Character.isISOControl(c)) {
        out.append('\uFFFD');
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean accepted(String text, boolean lineBreaks) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return false;
      } else if (Character.isISOControl(c)
          && !(lineBreaks && (c == '\t' || c == '\n' || c == '\r'))) {
        return false;
      }
    }
    return true;
  }
}
