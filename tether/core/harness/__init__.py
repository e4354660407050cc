"""The harness: binds a session, an agent and the plugins for a whole conversation."""
