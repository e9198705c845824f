package dev.controlplane.cluster;

/** What a {@link Leadership} implementation reports as it happens, for metrics. */
public interface LeadershipEvents {

  /** The known leader changed ({@code null}: none known). */
  void leaderChanged(String leader);

  /** This node recorded a new fencing term and leads with it. */
  void termWon(long term);

  LeadershipEvents NONE =
      new LeadershipEvents() {
        @Override
        public void leaderChanged(String leader) {}

        @Override
        public void termWon(long term) {}
      };
}
