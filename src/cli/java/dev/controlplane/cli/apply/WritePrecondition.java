package dev.controlplane.cli.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Optimistic concurrency of apply, in one place. A write is conditional on a version: the
 * document's own {@code metadata.version} when it has one (a file saved from {@code cpctl get -o
 * yaml} is stale once someone else changed the object), otherwise the version apply read just
 * before writing (0: the object must not exist yet). A stale write is refused by the server and
 * reported as a conflict, never retried over the other writer's change.
 *
 * <p>Today the version travels as {@code metadata.version} in the PUT body and a stale write gets
 * 409 (docs/api.md, Writes). When the API moves to {@code ETag} / {@code If-Match} (412), only this
 * class changes.
 */
public final class WritePrecondition {

  private final long expected;
  private final boolean fromDocument;

  private WritePrecondition(long expected, boolean fromDocument) {
    this.expected = expected;
    this.fromDocument = fromDocument;
  }

  /** The precondition of writing {@code doc} over {@code live} (null when it does not exist). */
  public static WritePrecondition of(JsonNode doc, JsonNode live) {
    JsonNode version = doc.path("metadata").path("version");
    if (version.isIntegralNumber() && version.canConvertToLong() && version.asLong() >= 0) {
      return new WritePrecondition(version.asLong(), true);
    }
    return new WritePrecondition(versionOf(live), false);
  }

  public static long versionOf(JsonNode doc) {
    return doc == null ? 0 : doc.path("metadata").path("version").asLong(0);
  }

  /** The version the write is conditional on (0: must not exist). */
  public long expectedVersion() {
    return expected;
  }

  /** The request body: the document with the precondition in {@code metadata.version}. */
  public ObjectNode body(JsonNode doc) {
    ObjectNode body = ((ObjectNode) doc).deepCopy();
    JsonNode meta = body.path("metadata");
    ObjectNode metadata = meta.isObject() ? (ObjectNode) meta : body.putObject("metadata");
    metadata.put("version", expected);
    return body;
  }

  /**
   * Whether a refusal ({@code status}) was this precondition failing: the server refused a stale
   * write (409 today, 412 with If-Match) and the object's version now differs from the expected
   * one. Other 409s (an immutable field, a stream being deleted) are not conflicts.
   */
  public boolean isConflict(int status, long currentVersion) {
    return (status == 409 || status == 412) && currentVersion != expected;
  }

  /** Why the write was refused, for the output line. */
  public String describeConflict(long currentVersion) {
    String now = currentVersion == 0 ? "it does not exist" : "it is at version " + currentVersion;
    return fromDocument
        ? "the file has metadata.version "
            + expected
            + ", but "
            + now
            + " (re-read it, or drop metadata.version)"
        : "changed by someone else while applying (read at version "
            + expected
            + ", "
            + now
            + "); not overwritten, apply again";
  }
}
