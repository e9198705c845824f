package dev.controlplane.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import dev.controlplane.cli.output.Printer;
import java.io.IOException;

/** gRPC messages as JSON trees (proto field names), for printing and files. */
final class Protos {

  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().preservingProtoFieldNames().omittingInsignificantWhitespace();

  private Protos() {}

  static JsonNode tree(MessageOrBuilder message) {
    try {
      return Printer.JSON.readTree(PRINTER.print(message));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
