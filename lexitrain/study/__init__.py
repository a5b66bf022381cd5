"""Study: cards, scheduling, the progress store, quiz sessions, the daily drill and challenge."""
