# Sourced by scripts/ensure-postgres and scripts/pg-replication (not run on its own): how they run
# commands as root, as the postgres OS user, and PostgreSQL servers without inherited descriptors.
# The sourcing script defines die() (message and exit 1).

is_root() { [ "$(id -u)" -eq 0 ]; }
have() { command -v "$1" >/dev/null 2>&1; }

# Runs a command with every inherited descriptor above 2 closed: a PostgreSQL server started from a
# shell that holds a lock file (flock) or a pipe would otherwise keep it open for its whole life.
without_inherited_fds() {
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
    "$@"
  )
}

# Runs a command as root (directly when root, else via sudo).
as_root() {
  if is_root; then
    "$@"
  elif have sudo; then
    sudo "$@"
  else
    die "need root privileges to run '$*' but not root and sudo is not installed"
  fi
}

# Runs a command as the postgres OS user (peer authentication over the Unix socket). cd / first so
# the postgres user does not trip over an unreadable working directory.
as_postgres() {
  if [ "$(id -un)" = postgres ]; then
    (cd / && "$@")
  elif is_root; then
    (cd / && runuser -u postgres -- "$@")
  elif have sudo; then
    (cd / && sudo -u postgres "$@")
  else
    die "need to run '$1' as the postgres OS user but not root and sudo is not installed"
  fi
}
