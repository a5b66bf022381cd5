"""Study: question kinds, requests that start sessions, the progress store, scheduling, the daily drill, challenges and positions."""
