/**
 * The database schema at start (apply or validate the Flyway migrations of db-migrations/), and the
 * JDBC parameter binding of the plain-JDBC writers.
 */
package dev.controlplane.db;
