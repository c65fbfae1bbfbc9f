"""Helpers around GNU Backgammon's Python packages, used only as test oracles."""
