package dev.controlplane.metadata;

import dev.controlplane.write.WriteContext;

/**
 * What a tenant created through the API gets besides its row, in the batch that creates it: its
 * first signing key ({@code auth.SigningKeys}). Without it the tenant's first token exchange would
 * have to write the key, which only the leader can: a follower asked first would refuse it.
 */
public interface TenantSetup {

  void created(WriteContext write, String tenant);
}
