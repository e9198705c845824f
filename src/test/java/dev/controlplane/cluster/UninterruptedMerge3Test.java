package dev.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jgroups.JChannel;
import org.jgroups.View;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.SHARED_LOOPBACK;
import org.jgroups.protocols.SHARED_LOOPBACK_PING;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Real JGroups stacks in one JVM (shared-loopback transport), one of them driven down the path GMS
 * takes when it announces a view and then drops it because the node already has that view.
 */
class UninterruptedMerge3Test {

  private static final long CHECK_MILLIS = 400;

  private final List<JChannel> channels = new ArrayList<>();

  @AfterEach
  void close() {
    channels.forEach(JChannel::close);
  }

  @Test
  void stockMerge3StaysStoppedAfterAViewGmsAnnouncesButDoesNotInstall() throws Exception {
    MERGE3 merge = tuned(new MERGE3());
    JChannel channel = connected(merge, "stock");
    assertThat(merge.isInfoSenderRunning()).isTrue();

    announceTheInstalledViewAgain(channel);

    Thread.sleep(4 * CHECK_MILLIS);
    assertThat(merge.isInfoSenderRunning())
        .as("JGroups 5.4.11's MERGE3 restarts its tasks only on an installed view")
        .isFalse();
    assertThat(merge.isViewConsistencyCheckerRunning()).isFalse();
  }

  @Test
  void uninterruptedMerge3KeepsBothTasksRunningThroughAViewGmsAnnouncesButDoesNotInstall()
      throws Exception {
    UninterruptedMerge3 merge = tuned(new UninterruptedMerge3());
    JChannel channel = connected(merge, "uninterrupted");

    announceTheInstalledViewAgain(channel);

    assertThat(merge.isInfoSenderRunning()).isTrue();
    assertThat(merge.isViewConsistencyCheckerRunning()).isTrue();
    Thread.sleep(2 * CHECK_MILLIS);
    assertThat(merge.isInfoSenderRunning()).isTrue();
    assertThat(merge.isViewConsistencyCheckerRunning()).isTrue();
  }

  @Test
  void aDisconnectStillStopsBothTasks() throws Exception {
    UninterruptedMerge3 merge = tuned(new UninterruptedMerge3());
    JChannel channel = connected(merge, "leaving");
    channel.disconnect();
    assertThat(merge.isInfoSenderRunning()).isFalse();
    assertThat(merge.isViewConsistencyCheckerRunning()).isFalse();
  }

  @Test
  void twoNodesThatFormedSeparateViewsMergeOnceTheyHearEachOther() throws Exception {
    String cluster = "apart-" + System.nanoTime();
    JChannel a = channel(tuned(new UninterruptedMerge3()), "a");
    JChannel b = channel(tuned(new UninterruptedMerge3()), "b");
    deaf(a, true);
    deaf(b, true);
    a.connect(cluster);
    b.connect(cluster);
    assertThat(a.getView().size()).isEqualTo(1);
    assertThat(b.getView().size()).isEqualTo(1);

    deaf(a, false);
    deaf(b, false);

    assertThat(
            within(
                15 * CHECK_MILLIS,
                () -> a.getView().size() == 2 && b.getView().equals(a.getView())))
        .as("views %s and %s", a.getView(), b.getView())
        .isTrue();
  }

  @Test
  void itKeepsMerge3sProtocolIdSoItsMessagesAreMerge3sOnTheWire() {
    assertThat(new UninterruptedMerge3().getId()).isEqualTo(new MERGE3().getId()).isNotZero();
  }

  private static <T extends MERGE3> T tuned(T merge) {
    merge.setMinInterval(100).setMaxInterval(200).setCheckInterval(CHECK_MILLIS);
    return merge;
  }

  private JChannel connected(MERGE3 merge, String name) throws Exception {
    JChannel channel = channel(merge, name);
    channel.connect("merge3-" + name + "-" + System.nanoTime());
    return channel;
  }

  private JChannel channel(MERGE3 merge, String name) throws Exception {
    GMS gms = new GMS().setJoinTimeout(200).setMaxJoinAttempts(2);
    gms.setValue("print_local_addr", false);
    JChannel channel =
        new JChannel(
                new SHARED_LOOPBACK(),
                new DISCARD(),
                new SHARED_LOOPBACK_PING(),
                merge,
                new NAKACK2(),
                new UNICAST3(),
                new STABLE(),
                gms)
            .name(name);
    channels.add(channel);
    return channel;
  }

  /** Drops every message the node sends or receives, or stops doing so. */
  private static void deaf(JChannel channel, boolean deaf) {
    channel.getProtocolStack().<DISCARD>findProtocol(DISCARD.class).discardAll(deaf);
  }

  /** What GMS does with a merge view the node already installed: TMP_VIEW, then nothing. */
  private static void announceTheInstalledViewAgain(JChannel channel) {
    GMS gms = channel.getProtocolStack().findProtocol(GMS.class);
    View installed = channel.getView();
    gms.castViewChangeAndSendJoinRsps(installed, null, installed.getMembers(), null, null);
    assertThat(channel.getView().getViewId()).isEqualTo(installed.getViewId());
  }

  private static boolean within(long millis, BooleanSupplier condition)
      throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (System.nanoTime() < until) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(20);
    }
    return condition.getAsBoolean();
  }
}
