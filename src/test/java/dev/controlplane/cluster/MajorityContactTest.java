package dev.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MajorityContactTest {

  private static final long WINDOW_NANOS = 20_000_000;

  private final Address self = UUID.randomUUID();
  private final Address other = UUID.randomUUID();
  private final Address third = UUID.randomUUID();
  private final View view = View.create(self, 1, self, other, third);
  private MajorityContact contact;

  @BeforeEach
  void contactOutOfTheWindow() throws InterruptedException {
    contact = inView();
    // Everything the view change counted as heard is now out of the window.
    Thread.sleep(2 * WINDOW_NANOS / 1_000_000);
  }

  private MajorityContact inView() {
    MajorityContact fresh = new MajorityContact();
    fresh.setAddress(self);
    fresh.setUpProtocol(new Swallow());
    fresh.up(new Event(Event.VIEW_CHANGE, view));
    return fresh;
  }

  @Test
  void aMemberThatJoinsAViewCountsAsHeardAtThatMoment() {
    assertThat(inView().majorityHeardWithin(view, 3, 10_000_000_000L)).isTrue();
  }

  @Test
  void aMulticastFromAMemberIsContact() {
    assertThat(contact.majorityHeardWithin(view, 2, WINDOW_NANOS)).isFalse();
    contact.up(new EmptyMessage(null).setSrc(other));
    assertThat(contact.majorityHeardWithin(view, 2, WINDOW_NANOS)).isTrue();
    assertThat(contact.majorityHeardWithin(view, 3, WINDOW_NANOS)).isFalse();
  }

  @Test
  void aUnicastIsNotContactBecauseAMemberOfAnotherViewStillSendsThem() {
    contact.up(new EmptyMessage(self).setSrc(other));
    contact.up(new MessageBatch(self, other, null, false, List.of(new EmptyMessage(self))));
    assertThat(contact.majorityHeardWithin(view, 2, WINDOW_NANOS)).isFalse();
  }

  @Test
  void aBatchOfMulticastsIsContact() {
    contact.up(new MessageBatch(null, third, null, true, List.of(new EmptyMessage(null))));
    assertThat(contact.majorityHeardWithin(view, 2, WINDOW_NANOS)).isTrue();
  }

  @Test
  void aMulticastFromOutsideTheViewIsNeitherContactNorRemembered() {
    for (int i = 0; i < 100; i++) {
      contact.up(new EmptyMessage(null).setSrc(UUID.randomUUID()));
    }
    assertThat(contact.majorityHeardWithin(view, 2, WINDOW_NANOS)).isFalse();
    assertThat(contact.remembered()).isEqualTo(3);
    contact.up(new Event(Event.VIEW_CHANGE, View.create(self, 2, self, other)));
    assertThat(contact.remembered()).isEqualTo(2);
  }

  /** The rest of the stack: takes whatever comes up. */
  private static final class Swallow extends Protocol {
    @Override
    public Object up(Message msg) {
      return null;
    }

    @Override
    public void up(MessageBatch batch) {}

    @Override
    public Object up(Event evt) {
      return null;
    }
  }
}
