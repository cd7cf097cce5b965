"""Memory that outlives a machine: commits, sync with a remote, restore (git under the store)."""
