package dev.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.controlplane.cli.ExitCodes;
import org.junit.jupiter.api.Test;

class ProblemTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aProblemIsOneLineWithItsCodeAndEveryInvalidField() throws Exception {
    String body =
        "{\"type\":\"urn:x\",\"title\":\"Bad Request\",\"status\":400,\"detail\":\"2 fields are invalid\",\"code\":\"validation_failed\","
            + "\"errors\":[{\"field\":\"spec.shards\",\"message\":\"must be between 1 and 1024\"},{\"field\":\"spec.retention.time\",\"message\":\"must be a duration\"}]}";
    Problem problem = Problem.of(400, JSON.readTree(body), body);
    assertThat(problem.oneLine())
        .isEqualTo(
            "validation_failed (400): spec.shards: must be between 1 and 1024; spec.retention.time: must be a duration");
    String conflict =
        "{\"status\":409,\"code\":\"conflict\",\"detail\":\"metadata.version 3 is not the current version 5\"}";
    assertThat(Problem.of(409, JSON.readTree(conflict), conflict).oneLine())
        .isEqualTo("conflict (409): metadata.version 3 is not the current version 5");
  }

  @Test
  void aBodyThatIsNoProblemStillGivesALineAndA503MeansUnreachable() {
    Problem plain = Problem.of(502, null, "Bad Gateway\n");
    assertThat(plain.oneLine()).isEqualTo("http_502 (502): Bad Gateway");
    assertThat(new ApiException(Problem.of(503, null, "")).exitCode())
        .isEqualTo(ExitCodes.UNREACHABLE);
    assertThat(new ApiException(plain).exitCode()).isEqualTo(ExitCodes.FAILED);
  }
}
