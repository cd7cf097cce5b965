"""chores."""
