"""editor."""
