package dev.controlplane.rbac;

import java.util.List;
import org.casbin.jcasbin.model.Model;
import org.casbin.jcasbin.persist.Adapter;

/**
 * jcasbin's view of one tenant's rows in {@code rbac_policies} and {@code rbac_groupings}. It only
 * loads: writes go through {@link RbacStore} inside a transaction that also bumps the revision, so
 * an enforcer is never changed in place, only replaced.
 */
final class TableAdapter implements Adapter {

  private final java.util.function.Supplier<List<PolicyRule>> policies;
  private final java.util.function.Supplier<List<Grouping>> groupings;
  private final String tenant;

  TableAdapter(RbacStore store, String tenant) {
    this(() -> store.policies(tenant), () -> store.groupings(tenant), tenant);
  }

  /** An adapter over rows already read (by the write pipeline, inside its transaction). */
  TableAdapter(List<PolicyRule> policies, List<Grouping> groupings, String tenant) {
    this(() -> policies, () -> groupings, tenant);
  }

  private TableAdapter(
      java.util.function.Supplier<List<PolicyRule>> policies,
      java.util.function.Supplier<List<Grouping>> groupings,
      String tenant) {
    this.policies = policies;
    this.groupings = groupings;
    this.tenant = tenant;
  }

  /**
   * Rules go into the model as field lists, never as CSV lines: group names come from identity
   * providers and may contain commas, quotes or a leading {@code #}, which a policy line would
   * split, unquote or read as a comment.
   */
  @Override
  public void loadPolicy(Model model) {
    for (PolicyRule p : policies.get()) {
      model.addPolicy("p", "p", List.of(p.subject(), tenant, p.object(), p.action()));
    }
    for (Grouping g : groupings.get()) {
      model.addPolicy("g", "g", List.of(g.principal(), g.role(), tenant));
    }
  }

  @Override
  public void savePolicy(Model model) {
    throw new UnsupportedOperationException("RBAC rows are written through RbacStore");
  }

  @Override
  public void addPolicy(String sec, String ptype, List<String> rule) {
    throw new UnsupportedOperationException("RBAC rows are written through RbacStore");
  }

  @Override
  public void removePolicy(String sec, String ptype, List<String> rule) {
    throw new UnsupportedOperationException("RBAC rows are written through RbacStore");
  }

  @Override
  public void removeFilteredPolicy(
      String sec, String ptype, int fieldIndex, String... fieldValues) {
    throw new UnsupportedOperationException("RBAC rows are written through RbacStore");
  }
}
