/**
 * Transactions of the service's own beans: {@link dev.controlplane.tx.Tx} and its interceptor,
 * which run methods in a JTA transaction without sending the expected failures of the domain
 * through the application server's transaction code (which records every runtime exception that
 * crosses it as an FFDC incident with a stack trace).
 */
package dev.controlplane.tx;
