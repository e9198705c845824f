package dev.controlplane.tx;

import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionRequiredException;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.TransactionalException;
import jakarta.transaction.UserTransaction;

/**
 * Starts, joins, commits and rolls back the transactions of {@link Tx} methods with the standard
 * {@code UserTransaction}; see {@link Tx} for why this is not the container's interceptor.
 *
 * <p>Semantics are those of {@code @Transactional}: a joined transaction is marked rollback-only by
 * a runtime exception; a transaction started here is committed when the method returns (or throws a
 * checked exception) and rolled back when it throws anything else or was marked rollback-only.
 */
@Tx
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
public class TxInterceptor {

  @Resource UserTransaction transaction;
  @Resource TransactionSynchronizationRegistry registry;

  @AroundInvoke
  Object around(InvocationContext call) throws Exception {
    if (registry.getTransactionStatus() != Status.STATUS_NO_TRANSACTION) {
      return joined(call);
    }
    if (type(call) == Tx.Type.MANDATORY) {
      throw new TransactionalException(
          call.getMethod() + " needs a transaction", new TransactionRequiredException());
    }
    return started(call);
  }

  private Object joined(InvocationContext call) throws Exception {
    try {
      return call.proceed();
    } catch (RuntimeException e) {
      registry.setRollbackOnly();
      throw e;
    }
  }

  private Object started(InvocationContext call) throws Exception {
    transaction.begin();
    Object result;
    try {
      result = call.proceed();
    } catch (RuntimeException | Error e) {
      rollbackQuietly(e);
      throw e;
    } catch (Exception checked) {
      finish();
      throw checked;
    }
    finish();
    return result;
  }

  /**
   * Commits, or rolls back a transaction something marked rollback-only: quietly when that was the
   * intended outcome ({@link IntendedRollback}), else as a failure.
   */
  private void finish() throws Exception {
    if (transaction.getStatus() == Status.STATUS_MARKED_ROLLBACK) {
      boolean intended = IntendedRollback.requested(registry);
      transaction.rollback();
      if (intended) {
        return;
      }
      throw new TransactionalException("the transaction was marked rollback-only", null);
    }
    try {
      transaction.commit();
    } catch (jakarta.transaction.RollbackException
        | jakarta.transaction.HeuristicMixedException
        | jakarta.transaction.HeuristicRollbackException e) {
      throw new TransactionalException("the transaction did not commit", e);
    }
  }

  private void rollbackQuietly(Throwable cause) {
    try {
      transaction.rollback();
    } catch (SystemException | IllegalStateException | SecurityException e) {
      cause.addSuppressed(e);
    }
  }

  private static Tx.Type type(InvocationContext call) {
    Tx onMethod = call.getMethod().getAnnotation(Tx.class);
    if (onMethod != null) {
      return onMethod.value();
    }
    Tx onClass = call.getMethod().getDeclaringClass().getAnnotation(Tx.class);
    return onClass == null ? Tx.Type.REQUIRED : onClass.value();
  }
}
