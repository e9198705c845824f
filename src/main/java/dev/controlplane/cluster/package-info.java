/**
 * Who may write. A node writes only while it holds the current leadership term, and every write
 * transaction proves it by comparing its term with the one recorded in PostgreSQL (fencing).
 */
package dev.controlplane.cluster;
