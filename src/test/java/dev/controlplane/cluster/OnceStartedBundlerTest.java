package dev.controlplane.cluster;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TP;
import org.junit.jupiter.api.Test;

class OnceStartedBundlerTest {

  /** The stack names the bundler by class; JGroups must be able to build it from that name. */
  @Test
  void jgroupsBuildsTheBundlerFromTheClassNameTheStackSets() throws Exception {
    assertInstanceOf(
        OnceStartedBundler.class, TP.createBundler(OnceStartedBundler.class.getName(), TCP.class));
  }
}
