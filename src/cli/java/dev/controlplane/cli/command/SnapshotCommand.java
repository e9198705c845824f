package dev.controlplane.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.controlplane.cli.BaseCommand;
import dev.controlplane.cli.CliException;
import dev.controlplane.cli.ExitCodes;
import dev.controlplane.cli.GroupCommand;
import dev.controlplane.cli.Session;
import dev.controlplane.cli.client.GrpcClient;
import dev.controlplane.cli.output.Printer;
import dev.controlplane.cli.output.Progress;
import dev.controlplane.cli.output.Table;
import dev.controlplane.proto.v1.GetSnapshotRequest;
import dev.controlplane.proto.v1.GetSnapshotResponse;
import dev.controlplane.proto.v1.Metadata;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cpctl snapshot}: the whole metadata at one version, to a file. */
@Command(
    name = "snapshot",
    header = "Save the metadata at one version to a file.",
    mixinStandardHelpOptions = true,
    description = "Save the metadata at one version to a file, and inspect such files.",
    subcommands = {SnapshotCommand.Save.class, SnapshotCommand.Status.class},
    footerHeading = "%nExamples:%n",
    footer = {"  cpctl snapshot save backup.json", "  cpctl snapshot status backup.json"})
public final class SnapshotCommand extends GroupCommand {

  private static final List<String> LISTS =
      List.of("tenants", "namespaces", "streams", "placements", "brokers", "bridges");

  @Command(
      name = "save",
      header = "Save a snapshot of the metadata to a file.",
      mixinStandardHelpOptions = true,
      description = {
        "Save a snapshot (gRPC GetSnapshot, all chunks) as {\"version\", \"metadata\": {tenants,"
            + " namespaces, streams, placements, brokers, bridges}} in the gRPC JSON form: YAML when FILE"
            + " ends in .yaml or .yml, JSON otherwise; - for stdout. The file is written only once"
            + " the last chunk arrived. Needs the broker credential (like watch)."
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  cpctl snapshot save backup.json",
        "  cpctl snapshot save at-1200.yaml --at-version 1200"
      })
  static final class Save extends BaseCommand {
    @Parameters(index = "0", paramLabel = "FILE")
    String file;

    @Option(
        names = "--at-version",
        paramLabel = "VERSION",
        description = "A version inside the retained history (default: the latest).")
    long version;

    @Override
    protected int execute() {
      Session session = session();
      ObjectNode doc;
      try (Progress progress = session.progress("snapshot", 0)) {
        doc = fetch(session.grpc(), version, progress);
      }
      String text = isYaml(file) ? Printer.yaml(doc) : Printer.json(doc) + "\n";
      write(session, text);
      JsonNode metadata = doc.path("metadata");
      StringBuilder counts = new StringBuilder();
      for (String list : LISTS) {
        counts
            .append(counts.length() == 0 ? "" : ", ")
            .append(metadata.path(list).size())
            .append(' ')
            .append(list);
      }
      session
          .err()
          .println(
              "snapshot at version "
                  + doc.path("version").asText()
                  + ": "
                  + counts
                  + (file.equals("-") ? "" : " -> " + file));
      return ExitCodes.OK;
    }

    private void write(Session session, String text) {
      if (file.equals("-")) {
        session.out().print(text);
        session.out().flush();
        return;
      }
      Path target = Path.of(file).toAbsolutePath();
      try {
        Path temp = Files.createTempFile(target.getParent(), ".snapshot", ".tmp");
        Files.writeString(temp, text, StandardCharsets.UTF_8);
        Files.move(
            temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw new CliException(ExitCodes.FAILED, "cannot write " + file + ": " + e.getMessage());
      }
    }
  }

  /**
   * Every chunk of the snapshot at {@code version}, merged. A node that cannot be reached, or that
   * breaks off, is replaced by the next one, which is read from the first chunk again.
   */
  static ObjectNode fetch(GrpcClient grpc, long version, Progress progress) {
    AtomicLong counted = new AtomicLong();
    return grpc.readMetadata(
        stub -> {
          // What a node that broke off counted is read again: take it back.
          progress.add(-counted.getAndSet(0));
          return whole(
              stub,
              version,
              units -> {
                counted.addAndGet(units);
                progress.add(units);
              });
        });
  }

  private static ObjectNode whole(
      MetadataServiceGrpc.MetadataServiceBlockingStub stub, long version, LongConsumer progress) {
    Metadata.Builder merged = Metadata.newBuilder();
    long at = -1;
    boolean last = false;
    Iterator<GetSnapshotResponse> chunks =
        stub.getSnapshot(GetSnapshotRequest.newBuilder().setVersion(version).build());
    while (chunks.hasNext()) {
      GetSnapshotResponse chunk = chunks.next();
      at = chunk.getVersion();
      merged.mergeFrom(chunk.getMetadata());
      progress.accept(resources(chunk.getMetadata()));
      last = chunk.getLast();
    }
    if (!last) {
      throw new CliException(
          ExitCodes.UNREACHABLE, "the snapshot ended before its last chunk; nothing was saved");
    }
    ObjectNode doc = Printer.JSON.createObjectNode();
    doc.put("version", at);
    doc.set("metadata", Protos.tree(merged));
    return doc;
  }

  private static long resources(Metadata m) {
    return (long) m.getTenantsCount()
        + m.getNamespacesCount()
        + m.getStreamsCount()
        + m.getPlacementsCount()
        + m.getBrokersCount();
  }

  static boolean isYaml(String file) {
    String name = file.toLowerCase(Locale.ROOT);
    return name.endsWith(".yaml") || name.endsWith(".yml");
  }

  @Command(
      name = "status",
      header = "Print a snapshot file's version and object counts.",
      mixinStandardHelpOptions = true,
      description = "Print the version and the number of objects of each kind in a snapshot file.",
      footerHeading = "%nExamples:%n",
      footer = "  cpctl snapshot status backup.json")
  static final class Status extends BaseCommand {
    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    @Override
    protected int execute() {
      JsonNode doc;
      try {
        byte[] bytes = Files.readAllBytes(file);
        doc =
            (isYaml(file.toString())
                    ? new com.fasterxml.jackson.databind.ObjectMapper(
                        new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
                    : Printer.JSON)
                .readTree(bytes);
      } catch (IOException e) {
        throw CliException.usage("cannot read " + file + ": " + e.getMessage());
      }
      if (doc == null || !doc.has("version") || !doc.has("metadata")) {
        throw CliException.usage(file + " is not a snapshot saved by cpctl snapshot save");
      }
      Table table =
          new Table(
              "VERSION", "TENANTS", "NAMESPACES", "STREAMS", "PLACEMENTS", "BROKERS", "BRIDGES");
      JsonNode m = doc.path("metadata");
      table.row(
          doc.path("version").asText(),
          m.path("tenants").size(),
          m.path("namespaces").size(),
          m.path("streams").size(),
          m.path("placements").size(),
          m.path("brokers").size(),
          m.path("bridges").size());
      table.print(session().out());
      return ExitCodes.OK;
    }
  }
}
