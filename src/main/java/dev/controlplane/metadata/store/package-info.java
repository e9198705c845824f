/**
 * JPA mapping of the current state of each kind (one table per kind). Only {@link
 * dev.controlplane.metadata.store.ResourceStore} touches these entities; everything else sees
 * resources.
 */
package dev.controlplane.metadata.store;
