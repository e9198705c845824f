package dev.controlplane.cli.apply;

import com.fasterxml.jackson.databind.JsonNode;
import dev.controlplane.cli.resource.ResourceRef;
import java.util.List;

/**
 * The outcome of one object: its name (or, for a document without one, where it came from), the
 * outcome, a detail for failures and notes, the changes a dry run found, and the document the
 * server answered with.
 */
public record Result(
    String name,
    ResourceRef ref,
    Outcome outcome,
    String detail,
    List<String> changes,
    JsonNode doc) {

  public static Result of(ResourceRef ref, Outcome outcome, String detail) {
    return new Result(ref.display(), ref, outcome, detail, List.of(), null);
  }

  /** One line: {@code stream/acme/payments/orders configured (server dry run)}, detail after. */
  public String line(String note) {
    StringBuilder out = new StringBuilder(name).append(' ').append(outcome.word()).append(note);
    if (detail != null && !detail.isEmpty()) {
      out.append(outcome.isFailure() ? ": " : " (").append(detail);
      if (!outcome.isFailure()) {
        out.append(')');
      }
    }
    return out.toString();
  }
}
