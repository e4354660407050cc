"""tether's kernel: mechanisms only — no feature decisions, no network, no built-in plugins."""
