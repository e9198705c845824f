package dev.controlplane.broker.rebalance;

/**
 * The replica counts every active broker ends within when a plan evens them out: {@code floor}, or
 * {@code ceiling} ({@code floor + 1} when the replicas do not divide evenly), counting the movable
 * replicas of draining and down brokers as already on active ones.
 */
record EvenCounts(int floor, int ceiling) {

  static EvenCounts afterEvacuation(ClusterLayout layout) {
    int brokers = layout.targets().size();
    int total = layout.targets().stream().mapToInt(b -> layout.replicasOn(b.name())).sum();
    for (String gone : layout.evacuated()) {
      total += (int) layout.slotsOn(gone).stream().filter(s -> s.movable).count();
    }
    return new EvenCounts(total / brokers, (total + brokers - 1) / brokers);
  }

  /**
   * What giving one more replica to a broker holding {@code replicas} costs the moves still to
   * come: below the floor it receives one that evening out would have to bring it anyway (0); below
   * the ceiling it still ends within the average (1); at or above it, a later move must take one
   * away again (2).
   */
  int cost(int replicas) {
    return replicas < floor ? 0 : replicas < ceiling ? 1 : 2;
  }
}
