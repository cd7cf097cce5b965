"""Background maintenance under the user's quota (spec 000 "Chores"): the supervisor, gauges and runners."""
