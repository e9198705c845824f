package dev.controlplane.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import dev.controlplane.it.support.Grpc;
import dev.controlplane.it.support.Http;
import dev.controlplane.it.support.IsolatedServer;
import dev.controlplane.it.support.RawCalls;
import dev.controlplane.it.support.SharedServer;
import dev.controlplane.proto.v1.AdminServiceGrpc;
import dev.controlplane.proto.v1.BrokerServiceGrpc;
import dev.controlplane.proto.v1.MetadataServiceGrpc;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.protobuf.ProtoMethodDescriptorSupplier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every method of the three services, sent well-formed requests of random content: names that are
 * valid, invalid and hostile, numbers at their extremes, enum numbers the contract does not define,
 * nested messages and repeated fields, with the credential each service takes. Whatever a client
 * sends, the answer is a status that says what was wrong (or OK), never INTERNAL or UNKNOWN, and
 * the node logs no unexpected failure. On a node of its own: the writes that succeed register
 * brokers and create streams the shared server's tests do not expect.
 */
class GrpcFuzzIT {

  private static final int REQUESTS_PER_METHOD = 40;
  private static final Set<Status.Code> SERVER_FAULTS =
      EnumSet.of(Status.Code.INTERNAL, Status.Code.UNKNOWN, Status.Code.DATA_LOSS);
  private static final List<String> TEXTS =
      List.of(
          "",
          "fuzz",
          "ns",
          "orders",
          "b1",
          "127.0.0.1:9092",
          "x".repeat(300),
          "Ünïcödé ✓",
          "../..",
          "a b",
          "stream:fuzz/ns/*",
          "-1",
          "\u0000",
          "7d",
          "10GB");
  private static final long[] NUMBERS = {
    0,
    1,
    2,
    3,
    -1,
    16,
    1024,
    1025,
    Integer.MAX_VALUE,
    Integer.MIN_VALUE,
    Long.MAX_VALUE,
    Long.MIN_VALUE
  };

  @Test
  void noRequestAClientCanSendGetsAServerFault() throws Exception {
    try (IsolatedServer node = IsolatedServer.start("grpc-fuzz", Map.of())) {
      Http operator = new Http(node.httpPort(), SharedServer.OPERATOR_TOKEN);
      assertThat(operator.put("/v1/tenants/fuzz", Http.tenant("fuzz", "fuzzed")).status())
          .isEqualTo(201);
      assertThat(
              operator
                  .put("/v1/tenants/fuzz/namespaces/ns", Http.namespace("fuzz", "ns", ""))
                  .status())
          .isEqualTo(201);

      Random random = new Random(20261128);
      Map<String, Integer> faults = new TreeMap<>();
      Map<String, Map<Status.Code, Integer>> answers = new TreeMap<>();
      List<String> examples = new ArrayList<>();
      int sent = 0;
      for (ServiceDescriptor service :
          List.of(
              AdminServiceGrpc.getServiceDescriptor(),
              BrokerServiceGrpc.getServiceDescriptor(),
              MetadataServiceGrpc.getServiceDescriptor())) {
        String token =
            service.getName().endsWith("AdminService")
                ? SharedServer.OPERATOR_TOKEN
                : SharedServer.BROKER_TOKEN;
        try (Grpc grpc = new Grpc(node.grpcPort(), token)) {
          for (MethodDescriptor<?, ?> method : service.getMethods()) {
            Descriptor input =
                ((ProtoMethodDescriptorSupplier) method.getSchemaDescriptor())
                    .getMethodDescriptor()
                    .getInputType();
            for (int i = 0; i < REQUESTS_PER_METHOD; i++) {
              DynamicMessage request = message(input, random, 0);
              Status status =
                  RawCalls.call(
                      grpc.channel(), method, request.toByteArray(), Duration.ofSeconds(3));
              sent++;
              answers
                  .computeIfAbsent(method.getBareMethodName(), m -> new TreeMap<>())
                  .merge(status.getCode(), 1, Integer::sum);
              if (SERVER_FAULTS.contains(status.getCode())) {
                faults.merge(method.getBareMethodName(), 1, Integer::sum);
                if (examples.size() < 5) {
                  examples.add(method.getBareMethodName() + " " + status + " for " + request);
                }
              }
            }
          }
        }
      }
      // What the requests got, per method: a run where all were refused at the door would prove
      // little, so the figures are printed for a reader to see how far they went.
      answers.forEach((method, codes) -> System.out.println("GrpcFuzzIT " + method + " " + codes));
      assertThat(sent).isGreaterThan(300);
      assertThat(answers.values().stream().mapToInt(c -> c.getOrDefault(Status.Code.OK, 0)).sum())
          .as("some random requests are valid and succeed")
          .isGreaterThan(20);
      assertThat(faults).as("server faults by method; for example %s", examples).isEmpty();
      assertThat(node.process().logText())
          .as("the node's log")
          .doesNotContain("unexpected failure");
    }
  }

  private static DynamicMessage message(Descriptor type, Random random, int depth) {
    DynamicMessage.Builder message = DynamicMessage.newBuilder(type);
    for (FieldDescriptor field : type.getFields()) {
      if (random.nextInt(4) == 0) {
        continue; // left unset, as proto3 clients often do
      }
      if (field.isRepeated()) {
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          Object value = value(field, random, depth);
          if (value != null) {
            message.addRepeatedField(field, value);
          }
        }
      } else {
        Object value = value(field, random, depth);
        if (value != null) {
          message.setField(field, value);
        }
      }
    }
    return message.build();
  }

  /**
   * Three values in four are plausible for the field (a name that exists, a small count, a defined
   * enum value), so that requests get past validation into the services; the rest are hostile.
   */
  private static Object value(FieldDescriptor field, Random random, int depth) {
    boolean plausible = random.nextInt(4) != 0;
    long number = plausible ? random.nextInt(5) : NUMBERS[random.nextInt(NUMBERS.length)];
    return switch (field.getJavaType()) {
      case STRING ->
          plausible
              ? plausibleText(field.getName(), random)
              : TEXTS.get(random.nextInt(TEXTS.size()));
      case INT -> (int) number;
      case LONG -> number;
      case BOOLEAN -> random.nextBoolean();
      case FLOAT -> (float) number / 3;
      case DOUBLE -> random.nextBoolean() ? Double.NaN : (double) number / 3;
      case BYTE_STRING -> ByteString.copyFromUtf8(TEXTS.get(random.nextInt(TEXTS.size())));
      case ENUM -> {
        if (plausible) {
          var defined = field.getEnumType().getValues();
          yield defined.get(random.nextInt(defined.size()));
        }
        int[] numbers = {0, 1, 2, 3, 4, 99};
        yield field
            .getEnumType()
            .findValueByNumberCreatingIfUnknown(numbers[random.nextInt(numbers.length)]);
      }
      case MESSAGE -> depth >= 3 ? null : message(field.getMessageType(), random, depth + 1);
    };
  }

  private static String plausibleText(String field, Random random) {
    if (field.contains("tenant")) {
      return "fuzz";
    }
    if (field.equals("namespace")) {
      return "ns";
    }
    if (field.contains("stream")) {
      return "s" + random.nextInt(4);
    }
    if (field.contains("broker") || field.equals("id")) {
      return "b" + random.nextInt(4);
    }
    if (field.contains("address")) {
      return "127.0.0.1:" + (9092 + random.nextInt(4));
    }
    if (field.equals("time")) {
      return "7d";
    }
    if (field.equals("size")) {
      return "10GB";
    }
    if (field.contains("zone") || field.contains("region")) {
      return "z" + random.nextInt(3);
    }
    if (field.contains("token") || field.equals("filter")) {
      return "";
    }
    return "fuzz";
  }
}
