"""The pure core: model, rules, rendering, search, scoring, compaction.

Nothing here imports trio, an HTTP stack or does I/O; time arrives as `now`.
"""
