"""Game simulators: pluggable policies that see only what a real player sees."""
