package dev.controlplane.write;

/**
 * Walks SQL text outside its quoted literals and identifiers, where placeholders and parentheses
 * mean what they say (dollar quoting and comments are not used in this service's SQL).
 */
final class SqlText {

  private SqlText() {}

  /** Sees one character outside quotes; returns false to stop the walk there. */
  @FunctionalInterface
  interface Visitor {
    boolean visit(char c);
  }

  /** Visits the characters from {@code from} on; the index where the visitor stopped, or -1. */
  static int walk(String sql, int from, Visitor visitor) {
    char quote = 0;
    for (int i = from; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (!visitor.visit(c)) {
        return i;
      }
    }
    return -1;
  }
}
