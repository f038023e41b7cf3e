"""Game simulators (issue 4): pluggable policies that see only what a real player sees."""
