package dev.controlplane.http;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The JAX-RS application. Its OpenAPI document is openapi/controlplane.yaml, served as written. */
@ApplicationPath("/")
public class ControlPlaneApplication extends Application {}
