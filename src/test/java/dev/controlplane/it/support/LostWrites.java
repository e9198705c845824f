package dev.controlplane.it.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Acknowledged writes missing from the database, or stored at another version than acknowledged.
 */
public final class LostWrites {

  private LostWrites() {}

  public static List<WriteLoad.Ack> find(String jdbcUrl, String prefix, List<WriteLoad.Ack> acks)
      throws SQLException {
    Map<String, Long> stored = new HashMap<>();
    try (Connection c =
            DriverManager.getConnection(jdbcUrl, TestDatabase.USER, TestDatabase.PASSWORD);
        PreparedStatement ps =
            // The tenant row at the acknowledged version is the proof; the log row may already be
            // trimmed by retention (the test servers keep only the last few thousand versions).
            c.prepareStatement("SELECT name, version FROM tenants WHERE name LIKE ?")) {
      ps.setString(1, prefix + "-%");
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          stored.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    return acks.stream()
        .filter(a -> !Long.valueOf(a.version()).equals(stored.get(a.tenant())))
        .toList();
  }
}
