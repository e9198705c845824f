package dev.controlplane.metadata.log;

import dev.controlplane.config.ControlPlaneConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Drops change-log history older than the retention window (leader duty). */
@ApplicationScoped
public class RetentionTrimmer {

  @Inject ChangeLog changeLog;
  @Inject ControlPlaneConfig config;

  public void trim() {
    changeLog.trim(config.retentionMinVersions(), config.retentionPeriod().toMillis());
  }
}
