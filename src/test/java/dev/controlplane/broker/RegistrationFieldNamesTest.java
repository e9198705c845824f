package dev.controlplane.broker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RegistrationFieldNamesTest {

  @Test
  void aRegistrationIsToldAboutTheFieldsItSentNotTheBrokerDocumentsFields() {
    assertThat(BrokerRegistry.requestField("metadata.name")).isEqualTo("broker_id");
    assertThat(BrokerRegistry.requestField("spec.address")).isEqualTo("address");
    assertThat(BrokerRegistry.requestField("spec.capacity.max_shards"))
        .isEqualTo("capacity.max_shards");
    assertThat(BrokerRegistry.requestField("spec.region")).isEqualTo("metadata[region]");
    assertThat(BrokerRegistry.requestField("spec.availability_zone"))
        .isEqualTo("metadata[availability_zone]");
    assertThat(BrokerRegistry.requestField("metadata[rack]")).isEqualTo("metadata[rack]");
  }
}
