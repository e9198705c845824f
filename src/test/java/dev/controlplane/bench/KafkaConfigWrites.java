package dev.controlplane.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Kafka's KRaft controller written with {@code IncrementalAlterConfigs}: each write sets one
 * topic's {@code retention.ms}, which the controller validates, turns into one {@code
 * ConfigRecord}, appends to its metadata log and commits, like one namespace write of the control
 * plane and one {@code Put} of etcd. As those, 100 keys per writer (800 topics of one partition,
 * created first), each write a changed value. A pure metadata write: creating a topic per write
 * would also create a partition on disk, and stop at the kernel's map count after some tens of
 * thousands. One admin client (one connection) per writer. Kafka has no watch API for clients, so
 * there is no lag phase. The Kafka process is closed by its owner.
 */
final class KafkaConfigWrites implements Target {

  private static final int KEYS_PER_WRITER = 100;
  private static final long WEEK_MS = 604_800_000L;

  private final boolean viaBroker;
  private final List<Admin> admins = new ArrayList<>();

  /**
   * Writes sent to the controller itself ({@code bootstrap.controllers}), as the control plane's
   * clients write to the control plane, or ({@code viaBroker}) to the broker, which forwards them
   * to the controller.
   */
  KafkaConfigWrites(KafkaProcess kafka, int writers, boolean viaBroker) throws Exception {
    this.viaBroker = viaBroker;
    for (int i = 0; i < writers; i++) {
      admins.add(viaBroker ? kafka.admin() : kafka.controllerAdmin());
    }
    try (Admin admin = kafka.admin()) {
      var existing = admin.listTopics().names().get();
      List<NewTopic> topics = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        for (int k = 0; k < KEYS_PER_WRITER; k++) {
          if (!existing.contains(topic(w, k))) {
            topics.add(new NewTopic(topic(w, k), 1, (short) 1));
          }
        }
      }
      for (int i = 0; i < topics.size(); i += 50) {
        var created = admin.createTopics(topics.subList(i, Math.min(topics.size(), i + 50)));
        for (var topic : created.values().values()) {
          try {
            topic.get();
          } catch (ExecutionException e) {
            // The admin client retries a request that timed out; the first one created it.
            if (!(e.getCause() instanceof TopicExistsException)) {
              throw e;
            }
          }
        }
      }
    }
  }

  private static String topic(int writer, int key) {
    return "bench-w" + writer + "-" + key;
  }

  @Override
  public String name() {
    return viaBroker ? "kafka (broker)" : "kafka-kraft";
  }

  @Override
  public long write(int writer, int sequence) throws Exception {
    int w = writer % admins.size();
    ConfigResource topic =
        new ConfigResource(ConfigResource.Type.TOPIC, topic(w, sequence % KEYS_PER_WRITER));
    AlterConfigOp retention =
        new AlterConfigOp(
            new ConfigEntry("retention.ms", Long.toString(WEEK_MS + sequence)),
            AlterConfigOp.OpType.SET);
    admins.get(w).incrementalAlterConfigs(Map.of(topic, List.of(retention))).all().get();
    return sequence;
  }

  @Override
  public long head() {
    return 0;
  }

  @Override
  public boolean watchable() {
    return false;
  }

  @Override
  public AutoCloseable watch(int index, long fromVersion, LongConsumer onUpdate) {
    throw new UnsupportedOperationException("Kafka has no watch API for clients");
  }

  @Override
  public void close() {
    for (Admin admin : admins) {
      admin.close();
    }
  }
}
