package dev.controlplane.write;

import dev.controlplane.config.ControlPlaneConfig;
import dev.controlplane.it.support.TestDatabase;

/** The settings the write pipeline reads, for a pipeline run in a test on a test database. */
class PipelineTestConfig extends ControlPlaneConfig {

  private final String url;

  PipelineTestConfig(String url) {
    this.url = url;
  }

  @Override
  public String dbUrl() {
    return url;
  }

  @Override
  public String dbUser() {
    return TestDatabase.USER;
  }

  @Override
  public String dbPassword() {
    return TestDatabase.PASSWORD;
  }

  @Override
  public String nodeId() {
    return "cp1";
  }
}
