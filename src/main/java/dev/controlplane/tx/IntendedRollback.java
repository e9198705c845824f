package dev.controlplane.tx;

import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * A rollback that is the outcome the caller wants (a dry run computes a write and keeps nothing),
 * as opposed to one caused by a failure. {@link TxInterceptor} rolls such a transaction back and
 * returns the method's result; any other transaction found marked rollback-only at the end is a
 * failure and is reported as one.
 */
public final class IntendedRollback {

  private static final Object KEY = IntendedRollback.class;

  private IntendedRollback() {}

  /** Marks the current transaction to roll back when it ends, as intended. */
  public static void request(TransactionSynchronizationRegistry registry) {
    registry.putResource(KEY, Boolean.TRUE);
    registry.setRollbackOnly();
  }

  static boolean requested(TransactionSynchronizationRegistry registry) {
    return Boolean.TRUE.equals(registry.getResource(KEY));
  }
}
