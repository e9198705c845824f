package dev.controlplane.http;

import dev.controlplane.broker.BrokerRegistry;
import dev.controlplane.error.ControlPlaneException;
import dev.controlplane.metadata.codec.ResourceCodec;
import dev.controlplane.metadata.log.WriteMode;
import dev.controlplane.metadata.model.Broker;
import dev.controlplane.metadata.store.ResourceStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/**
 * Brokers: they register themselves over gRPC; the operator may remove one that is gone for good.
 */
@Path("/v1/brokers")
@ApplicationScoped
@Produces({"application/json", "application/yaml"})
public class BrokerResource {

  @Inject ResourceStore store;
  @Inject ResourceCodec codec;
  @Inject AdminAuth auth;
  @Inject BrokerRegistry registry;

  @GET
  public Response list(
      @QueryParam("limit") String limit,
      @QueryParam("page_token") String pageToken,
      @Context HttpHeaders headers) {
    auth.requireBrokerReader(headers);
    int n = Paging.limit(limit);
    var page = store.brokers(Paging.after(pageToken), n);
    return Documents.list(codec, page, Paging.next(page, n, Broker::name), headers);
  }

  @GET
  @Path("/{broker}")
  public Response get(@PathParam("broker") String broker, @Context HttpHeaders headers) {
    auth.requireBrokerReader(headers);
    PathNames.check("broker", broker);
    Broker found =
        store
            .broker(broker)
            .orElseThrow(
                () -> ControlPlaneException.notFound("broker " + broker + " does not exist"));
    return Documents.ok(codec, found, headers).build();
  }

  @DELETE
  @Path("/{broker}")
  public Response delete(
      @PathParam("broker") String broker,
      @QueryParam("dryRun") String dryRun,
      @Context HttpHeaders headers) {
    auth.requireOperator(headers, "removing a broker");
    PathNames.check("broker", broker);
    WriteMode mode = WriteMode.ofDryRunParameter(dryRun);
    return Documents.ok(
            codec, registry.remove(broker, Conditions.forDelete(headers), mode), headers)
        .build();
  }
}
