"""Helpers shared by the test modules: real processes on loopback and shared request bodies."""
