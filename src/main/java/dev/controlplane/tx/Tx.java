package dev.controlplane.tx;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the method (or every method of the class) in a JTA transaction, like {@code
 * jakarta.transaction.Transactional} with {@code REQUIRED} or {@code MANDATORY}: a runtime
 * exception rolls the transaction back, a checked one does not.
 *
 * <p>Why not {@code @Transactional}: Open Liberty's interceptor for it runs the method through its
 * unit-of-work manager, which writes an FFDC incident (a file and a console line with a stack
 * trace) for every runtime exception the method throws — including a 404, a 409 or a quota refusal,
 * which are answers, not faults. {@link TxInterceptor} uses the standard {@code UserTransaction}
 * instead, so such exceptions reach the adapters without a trace.
 */
@InterceptorBinding
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
public @interface Tx {

  /** {@code REQUIRED}: join the caller's transaction or start one; {@code MANDATORY}: join only. */
  enum Type {
    REQUIRED,
    MANDATORY
  }

  @Nonbinding
  Type value() default Type.REQUIRED;
}
