package dev.controlplane.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PageSizeTest {

  @Test
  void aUint32PageSizePastTwoToTheThirtyFirstIsLargeNotUnset() {
    assertThat(AdminGrpcService.pageSize(0)).as("unset").isZero();
    assertThat(AdminGrpcService.pageSize(5000)).isEqualTo(5000);
    assertThat(AdminGrpcService.pageSize(Integer.MIN_VALUE)).isEqualTo(Integer.MAX_VALUE);
    assertThat(AdminGrpcService.pageSize(-1))
        .as("4294967295 on the wire")
        .isEqualTo(Integer.MAX_VALUE);
  }
}
