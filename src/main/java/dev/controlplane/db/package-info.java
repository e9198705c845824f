/** The database schema at start: apply or validate the Flyway migrations of db-migrations/. */
package dev.controlplane.db;
