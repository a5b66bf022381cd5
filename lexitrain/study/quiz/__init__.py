"""The quiz core: a session asks, checks, records and reschedules questions of every kind."""
