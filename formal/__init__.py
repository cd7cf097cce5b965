"""Models of the actors' protocols and a small explicit-state checker that explores them (see README.md)."""
