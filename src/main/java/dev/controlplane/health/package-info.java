/** MicroProfile Health checks: liveness and readiness. */
package dev.controlplane.health;
