/**
 * The leader's write pipeline: one thread owns the in-memory write state, every write of every
 * table is an {@link dev.controlplane.write.Operation} submitted to it, and batches of operations
 * commit in one fenced PostgreSQL transaction (see {@link dev.controlplane.write.WritePipeline}).
 */
package dev.controlplane.write;
