"""Advice for a player at the table (issue 4): discard, draw and knock/drop, with numbers."""
