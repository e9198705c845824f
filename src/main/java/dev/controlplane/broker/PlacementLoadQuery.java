package dev.controlplane.broker;

import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.store.BrokerLoadTable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** The current shard replicas and leaderships of each candidate broker. */
@ApplicationScoped
public class PlacementLoadQuery {

  @Inject BrokerLoadTable loads;

  public List<BrokerLoad> loadOf(List<Broker> brokers) {
    var counts = loads.all();
    return brokers.stream()
        .map(
            b -> {
              var c = counts.getOrDefault(b.name(), new BrokerLoadTable.Load(0, 0));
              return new BrokerLoad(b, c.replicas(), c.leaders());
            })
        .toList();
  }
}
