"""One module a protocol; each names the handlers it models, its bounds and its invariants."""
